// The wiki's mentions as you type: after "@[[" in a text, the entries you may see, the
// campaign's characters, its sessions and the handouts you may see whose name starts with
// what follows are offered as buttons; one click completes the mention ("@[[Name]]", or
// "@[[handout:7]]" when another thing has the same name). The names come from
// GET .../wiki/mentions/?q=, which answers only what the writer may see. Without this script
// the text works the same.
(function () {
  "use strict";
  var OPEN = /@\[\[([^\[\]\n]{0,60})$/;
  var gettext = window.gettext || function (text) { return text; };
  var interpolate = window.interpolate || function (text, values, named) {
    return text.replace(/%\((\w+)\)s/g, function (all, key) { return named ? values[key] : all; });
  };

  function setUp(area) {
    var url = area.getAttribute("data-mentions");
    var box = document.createElement("div");
    box.className = "wiki-mentions";
    box.setAttribute("aria-live", "polite");
    area.insertAdjacentElement("afterend", box);
    var timer = null;
    var asked = 0;

    function clear() {
      box.textContent = "";
    }

    function complete(name) {
      var caret = area.selectionStart;
      var before = area.value.slice(0, caret);
      var match = OPEN.exec(before);
      if (!match) return;
      var start = caret - match[1].length;
      var after = area.value.slice(caret);
      var closed = after.indexOf("]]") === 0 ? after.slice(2) : after;
      area.value = area.value.slice(0, start) + name + "]]" + closed;
      var at = start + name.length + 2;
      area.focus();
      area.setSelectionRange(at, at);
      clear();
    }

    function show(rows) {
      clear();
      if (!rows.length) return;
      var label = document.createElement("span");
      label.className = "muted";
      label.textContent = gettext("Mention:") + " ";
      box.appendChild(label);
      rows.forEach(function (row) {
        var button = document.createElement("button");
        button.type = "button";
        button.className = "secondary small";
        var name = document.createElement("span");
        name.setAttribute("translate", "no");
        name.textContent = row.name;
        button.appendChild(name);
        // the kind: a built-in one in the page's language (the API answers it so)
        button.appendChild(document.createTextNode(" " + interpolate(gettext("(%(kind)s)"), { kind: row.kind }, true)));
        button.addEventListener("click", function () {
          complete(row.insert || row.name);
        });
        box.appendChild(button);
      });
    }

    function ask() {
      var match = OPEN.exec(area.value.slice(0, area.selectionStart));
      if (!match) {
        clear();
        return;
      }
      var mine = ++asked;
      fetch(url + "?q=" + encodeURIComponent(match[1]), {
        credentials: "same-origin",
        headers: { Accept: "application/json" },
      })
        .then(function (r) {
          return r.ok ? r.json() : [];
        })
        .then(function (rows) {
          if (mine === asked) show(Array.isArray(rows) ? rows : []);
        })
        .catch(clear);
    }

    area.addEventListener("input", function () {
      clearTimeout(timer);
      timer = setTimeout(ask, 200);
    });
    area.addEventListener("keydown", function (event) {
      if (event.key === "Escape") clear();
    });
  }

  document.querySelectorAll("textarea[data-mentions]").forEach(setUp);
})();
