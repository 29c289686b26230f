// Search as you type, for readers with JavaScript: the search form works without it (GET ~search), and
// this only adds suggestions under the box from `~search.json`. Results are built with textContent, never
// as HTML, so nothing in a title or snippet can become markup.
(function () {
  'use strict';
  var form = document.querySelector('form.site-search');
  if (!form || !window.fetch) return;
  var input = form.querySelector('input[name="q"]');
  var endpoint = form.getAttribute('data-suggest');
  if (!input || !endpoint) return;

  var list = document.createElement('ul');
  list.className = 'search-suggestions';
  list.id = 'search-suggestions';
  list.setAttribute('role', 'listbox');
  list.hidden = true;
  form.appendChild(list);
  input.setAttribute('aria-controls', list.id);

  var timer = 0;
  var latest = 0;

  function element(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text) node.textContent = text;
    return node;
  }

  function show(results, query) {
    list.textContent = '';
    if (!query) { list.hidden = true; return; }
    if (results.length === 0) {
      list.appendChild(element('li', 'suggestion-empty', 'No page matches this search.'));
    }
    results.slice(0, 8).forEach(function (result) {
      var item = element('li');
      var link = element('a', 'suggestion');
      link.href = result.url;
      link.appendChild(element('strong', 'suggestion-title', result.title));
      if (result.place) link.appendChild(element('span', 'suggestion-place', result.place));
      var first = result.sections && result.sections[0];
      if (first && first.snippet) link.appendChild(element('span', 'suggestion-snippet', first.snippet));
      item.appendChild(link);
      list.appendChild(item);
    });
    list.hidden = false;
  }

  function lookup() {
    var query = input.value.trim();
    var ticket = ++latest;
    if (!query) { show([], ''); return; }
    fetch(endpoint + '?q=' + encodeURIComponent(query), { credentials: 'same-origin', headers: { accept: 'application/json' } })
      .then(function (response) { return response.ok ? response.json() : { results: [] }; })
      .then(function (body) { if (ticket === latest) show(body.results || [], query); })
      .catch(function () { /* The form still works: suggestions are a convenience. */ });
  }

  input.addEventListener('input', function () {
    clearTimeout(timer);
    timer = setTimeout(lookup, 150);
  });
  input.addEventListener('keydown', function (event) {
    if (event.key === 'Escape') { list.hidden = true; }
    if (event.key === 'ArrowDown' && !list.hidden) {
      var first = list.querySelector('a');
      if (first) { event.preventDefault(); first.focus(); }
    }
  });
  document.addEventListener('click', function (event) {
    if (!form.contains(event.target)) list.hidden = true;
  });
})();
