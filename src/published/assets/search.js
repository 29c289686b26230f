// Search for readers with JavaScript: the header's form works without it (GET ~search). With it, the form
// (or Ctrl/⌘-K anywhere) opens a search dialog that asks `~search.json` as the reader types: results with
// their sections, the words found highlighted, arrow keys to move, Enter to open, Escape to close, and
// "More results" to page. Everything is built with textContent (never as HTML), so nothing in a title or
// a snippet can become markup. A search that rests for a second is counted (with its number of results).
(function () {
  'use strict';
  var form = document.querySelector('form.site-search');
  if (!form || !window.fetch || typeof HTMLDialogElement !== 'function') return;
  var headerInput = form.querySelector('input[name="q"]');
  var endpoint = form.getAttribute('data-suggest');
  if (!headerInput || !endpoint) return;
  var PAGE = 6;

  function element(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text) node.textContent = text;
    return node;
  }

  var dialog = element('dialog', 'search-dialog');
  dialog.setAttribute('aria-label', 'Search');
  var box = element('div', 'search-dialog-box');
  var label = element('label', 'visually-hidden', 'Search this site');
  label.setAttribute('for', 'search-dialog-q');
  var input = element('input', 'search-dialog-input');
  input.id = 'search-dialog-q';
  input.type = 'search';
  input.placeholder = 'Search…';
  input.autocomplete = 'off';
  input.maxLength = 200;
  input.setAttribute('role', 'combobox');
  input.setAttribute('aria-expanded', 'true');
  input.setAttribute('aria-controls', 'search-dialog-results');
  input.setAttribute('aria-autocomplete', 'list');
  var list = element('ul', 'search-dialog-results');
  list.id = 'search-dialog-results';
  list.setAttribute('role', 'listbox');
  list.setAttribute('aria-label', 'Results');
  var status = element('p', 'search-dialog-status');
  status.setAttribute('role', 'status');
  var more = element('button', 'search-dialog-more', 'More results');
  more.type = 'button';
  more.hidden = true;
  var hint = element('p', 'search-dialog-hint', '↑ ↓ to move, Enter to open, Esc to close');
  box.appendChild(label);
  box.appendChild(input);
  box.appendChild(status);
  box.appendChild(list);
  box.appendChild(more);
  box.appendChild(hint);
  dialog.appendChild(box);
  document.body.appendChild(dialog);

  var results = [];
  var shown = 0;
  var active = -1;
  var timer = 0;
  var counted = 0;
  var latest = 0;

  // The words of the query, marked in a text without making any HTML from it.
  function highlighted(tag, className, text, words) {
    var node = element(tag, className);
    if (!text) return node;
    var pattern = words.length ? new RegExp('(' + words.map(function (w) { return w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'); }).join('|') + ')', 'gi') : null;
    var at = 0;
    if (pattern) {
      text.replace(pattern, function (match, _g, offset) {
        if (offset > at) node.appendChild(document.createTextNode(text.slice(at, offset)));
        node.appendChild(element('mark', null, match));
        at = offset + match.length;
        return match;
      });
    }
    if (at < text.length) node.appendChild(document.createTextNode(text.slice(at)));
    return node;
  }

  function options() { return list.querySelectorAll('[role="option"]'); }

  function select(index) {
    var all = options();
    if (all.length === 0) { active = -1; input.removeAttribute('aria-activedescendant'); return; }
    active = (index + all.length) % all.length;
    Array.prototype.forEach.call(all, function (option, i) { option.setAttribute('aria-selected', i === active ? 'true' : 'false'); });
    input.setAttribute('aria-activedescendant', all[active].id);
    all[active].scrollIntoView({ block: 'nearest' });
  }

  function render(words) {
    for (; shown < Math.min(results.length, shown + PAGE); shown++) {
      var result = results[shown];
      var entries = [{ title: result.title, url: result.url, snippet: (result.sections[0] && result.sections[0].snippet) || '', place: result.place, page: true }];
      result.sections.slice(1, 3).forEach(function (section) { if (section.title) entries.push({ title: section.title, url: section.url, snippet: section.snippet }); });
      entries.forEach(function (entry, i) {
        var item = element('li', entry.page ? 'search-option' : 'search-option search-option-section');
        item.setAttribute('role', 'option');
        item.id = 'search-option-' + shown + '-' + i;
        var link = element('a');
        link.href = entry.url;
        link.tabIndex = -1;
        link.appendChild(highlighted('span', 'search-option-title', entry.title, words));
        if (entry.place) link.appendChild(element('span', 'search-option-place', entry.place));
        if (entry.snippet) link.appendChild(highlighted('span', 'search-option-snippet', entry.snippet, words));
        item.appendChild(link);
        item.addEventListener('click', function () { open(entry.url, result); });
        list.appendChild(item);
      });
    }
    more.hidden = shown >= results.length;
  }

  function open(url, result) {
    if (window.quireInsights && result) window.quireInsights({ type: 'search_open_result', query: input.value.trim() });
    window.location.href = url;
  }

  function show(found, query) {
    results = found;
    shown = 0;
    list.textContent = '';
    var words = query.split(/\s+/).filter(function (w) { return w.length > 1; }).slice(0, 8);
    status.textContent = !query ? '' : found.length === 0 ? 'No page matches “' + query + '”.' : found.length + (found.length === 1 ? ' page' : ' pages') + ' found';
    render(words);
    select(0);
    clearTimeout(counted);
    if (query) counted = setTimeout(function () { if (window.quireInsights) window.quireInsights({ type: 'search_type_query', query: query, results: found.length }); }, 1000);
  }

  function lookup() {
    var query = input.value.trim();
    var ticket = ++latest;
    if (!query) { show([], ''); return; }
    fetch(endpoint + '?q=' + encodeURIComponent(query), { credentials: 'same-origin', headers: { accept: 'application/json' } })
      .then(function (response) { return response.ok ? response.json() : { results: [] }; })
      .then(function (body) { if (ticket === latest) show(body.results || [], query); })
      .catch(function () { status.textContent = 'Search is not available right now.'; });
  }

  function openDialog(text) {
    if (dialog.open) { input.focus(); return; }
    dialog.showModal();
    if (typeof text === 'string') input.value = text;
    input.focus();
    input.select();
    if (input.value.trim()) lookup();
  }

  input.addEventListener('input', function () { clearTimeout(timer); timer = setTimeout(lookup, 120); });
  input.addEventListener('keydown', function (event) {
    if (event.key === 'ArrowDown') { event.preventDefault(); select(active + 1); }
    else if (event.key === 'ArrowUp') { event.preventDefault(); select(active - 1); }
    else if (event.key === 'Enter') {
      event.preventDefault();
      var all = options();
      var link = all[active] && all[active].querySelector('a');
      if (link) open(link.href, true);
      else if (input.value.trim()) window.location.href = form.getAttribute('action') + '?q=' + encodeURIComponent(input.value.trim());
    }
  });
  more.addEventListener('click', function () {
    var words = input.value.trim().split(/\s+/).filter(function (w) { return w.length > 1; });
    var first = shown;
    render(words);
    var all = options();
    select(Array.prototype.findIndex.call(all, function (o) { return o.id.indexOf('search-option-' + first + '-') === 0; }));
    input.focus();
  });
  dialog.addEventListener('click', function (event) { if (event.target === dialog) dialog.close(); });
  dialog.addEventListener('close', function () { headerInput.value = input.value; });

  headerInput.addEventListener('focus', function () { headerInput.blur(); openDialog(headerInput.value); });
  form.addEventListener('submit', function (event) { event.preventDefault(); openDialog(headerInput.value); });
  document.addEventListener('keydown', function (event) {
    if ((event.ctrlKey || event.metaKey) && !event.altKey && (event.key === 'k' || event.key === 'K')) {
      event.preventDefault();
      openDialog();
    } else if (event.key === '/' && !dialog.open && !/^(INPUT|TEXTAREA|SELECT)$/.test(document.activeElement.tagName)) {
      event.preventDefault();
      openDialog();
    }
  });
})();
