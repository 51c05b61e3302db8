/* The one browser client of the game-table core (tables/api.py): poll, send, reload on 409.
 *
 * Any table page (a battle, a tavern game) creates one:
 *
 *   const client = new TableClient({
 *     stateUrl: "/api/duels/3/state/",     // GET ?since=<version>: 204 unchanged, 200 changed
 *     actionUrl: "/api/duels/3/actions/",  // POST {action, expected_version}
 *     version: -1,                         // what the page has (-1: nothing yet)
 *     pollMs: 1500,
 *     onState(data, full) { ... draw ... },  // data.version, data.view, data.legal_actions ...
 *     onStale() { ... "someone moved first" ... },   // after a 409 (the state is reloaded)
 *     onError(message, data) { ... },                // a refused move, in words
 *     onLive(text) { ... },                          // "Live.", "Offline; retrying."
 *     socketPath: "/ws/tables/duel/3/",              // pushed versions (docs/push.md)
 *     onPresence(people) { ... },                    // [{name, here, since}]
 *   });
 *   client.start();
 *   client.send({ type: "play", card: 7 });
 *
 * With ``socketPath`` (and the server pushing: static/js/push.js) the client listens instead
 * of polling: each version note newer than the page's fetches the seat's own view; while no
 * socket is open it polls. A hidden tab never polls; it catches up when shown.
 *
 * A 409 means someone else moved first: nothing changed on the server, so the client fetches
 * the current state at once and the page redraws. Everything the page shows comes from the
 * server's per-seat view; the client never computes rules.
 */
(function (global) {
  "use strict";

  function csrfToken() {
    const match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    if (match) return decodeURIComponent(match[1]);
    const field = document.querySelector("input[name=csrfmiddlewaretoken]");
    return field ? field.value : "";
  }

  /* One HTTP exchange with the API; answers {status, data} (data null for 204 or a non-JSON
   * body). Also TableClient.request, for a page's other modules (the table chat). */
  async function request(method, url, body) {
    const response = await fetch(url, {
      method,
      headers: Object.assign(
        { Accept: "application/json", "X-CSRFToken": csrfToken() },
        body === undefined ? {} : { "Content-Type": "application/json" },
      ),
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: "same-origin",
      cache: "no-store",
    });
    let data = null;
    if (response.status !== 204) {
      try { data = await response.json(); } catch (e) { data = null; }
    }
    return { status: response.status, data };
  }

  // The API's messages are sentences in words (docs/api.md): shown as they are, never after
  // the field's key ("map: The battle has started on ..." showed a raw key to the player).
  function firstError(data) {
    if (!data) return gettext("Something went wrong.");
    if (data.errors) {
      for (const messages of Object.values(data.errors)) {
        const list = Array.isArray(messages) ? messages : [JSON.stringify(messages)];
        if (list.length) return list[0];
      }
    }
    return data.detail || gettext("Something went wrong.");
  }

  class TableClient {
    constructor(options) {
      this.options = options;
      this.version = options.version === undefined ? -1 : options.version;
      this.busy = false;
      this.polling = false;
      this.timer = null;
      this.pushed = false;
      this.socket = null;
      this.heard = -1; // the newest version a socket told of
    }

    /* One HTTP exchange (:func:`request`). */
    request(method, url, body) {
      return request(method, url, body);
    }

    live(text) { if (this.options.onLive) this.options.onLive(text); }

    /* Ask for the state; ``full`` ignores the version the page has (a redraw from scratch). */
    async poll(full) {
      const sent = this.version;
      const since = full || sent < 0 ? "" : `?since=${sent}`;
      this.polling = true;
      try {
        const { status, data } = await this.request("GET", this.options.stateUrl + since);
        if (status === 200 && data) {
          // An answer older than the version asked about: the server no longer has that
          // version (moves lost in a crash of its database), so this is drawn from scratch.
          const first = full || sent < 0 || data.version < sent;
          // Only a newer version is drawn: two answers for one version (polls crossing on a
          // slow line) would draw the table again and close whatever the player had open.
          // Nor while this page's own move is on its way (a poll sent before it can answer
          // first): its answer draws the table, and moves drawn before it could not be sent
          // yet, so a quick player's next click would be lost without a word.
          if (first || (data.version > this.version && !this.busy)) {
            this.version = data.version;
            this.options.onState(data, first);
          }
          this.live(gettext("Live."));
        } else if (status === 204) {
          this.live(gettext("Live."));
        } else {
          this.live(interpolate(gettext("Could not refresh (%(status)s); retrying."), { status }, true));
        }
      } catch (err) {
        this.live(gettext("Offline; retrying."));
      } finally {
        this.polling = false;
      }
    }

    // full: the first read is the whole state even if a version is known (a page drawn
    // without the state, such as the battle screen); by default only when none is.
    start(full) {
      this.stop();
      this.poll(full === undefined ? this.version < 0 : full);
      // A tick while a poll is still out asks nothing: one poll at a time; none while the
      // socket is open or the tab is hidden.
      // A note that came while a poll or a move was out is caught up by the next tick.
      const tick = () => {
        const behind = this.heard > this.version;
        if (!this.busy && !this.polling && (!this.pushed || behind) && !document.hidden) {
          this.poll(false);
        }
      };
      this.timer = global.setInterval(tick, this.options.pollMs || 1500);
      this.onShown = () => { if (!document.hidden && !this.polling) this.poll(false); };
      document.addEventListener("visibilitychange", this.onShown);
      const push = global.WRPush;
      if (this.options.socketPath && push && push.enabled()) {
        this.socket = push.subscribe(this.options.socketPath, {
          presence: true,
          onOpen: () => { this.pushed = true; this.live(gettext("Live.")); },
          onDown: () => { this.pushed = false; },
          onMessage: (note) => {
            if (note.type === "version") {
              this.heard = Math.max(this.heard, note.version);
              if (note.version > this.version && !this.polling && !this.busy) this.poll(false);
            } else if (note.type === "presence" && this.options.onPresence) {
              this.options.onPresence(note.people || []);
            }
          },
        });
      }
    }

    stop() {
      if (this.timer) global.clearInterval(this.timer);
      this.timer = null;
      if (this.onShown) document.removeEventListener("visibilitychange", this.onShown);
      if (this.socket) this.socket.close();
      this.socket = null;
      this.pushed = false;
    }

    /* Any write to the table (an action, or a game's own setup change). Answers true when the
     * server accepted it; on 409 it reloads the state and calls onStale. */
    async write(method, url, body) {
      if (this.busy) return false;
      this.busy = true;
      try {
        const { status, data } = await this.request(method, url, body);
        if (status === 200 || status === 201) {
          if (data && typeof data.version === "number") this.version = data.version;
          if (this.options.onWritten) this.options.onWritten(data);
          else if (data) this.options.onState(data, false);
          return true;
        }
        if (status === 409) {
          if (this.options.onStale) this.options.onStale(data);
          this.busy = false;
          await this.poll(false);
          return false;
        }
        if (this.options.onError) this.options.onError(firstError(data), data);
        return false;
      } catch (err) {
        if (this.options.onError) this.options.onError(gettext("The move could not be sent; nothing was changed."), null);
        return false;
      } finally {
        this.busy = false;
      }
    }

    /* Send one action against the version the page shows. */
    send(action) {
      return this.write("POST", this.options.actionUrl, { action, expected_version: this.version });
    }
  }

  TableClient.firstError = firstError;
  TableClient.request = request;
  global.TableClient = TableClient;
})(window);
