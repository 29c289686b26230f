// Light or dark before the first paint: loaded in <head> without `defer`, so the page never flashes the
// other theme. The server sets data-theme to the site's default theme; where the toggle is on
// (data-toggle="on"), the reader's last choice (kept in this browser only) replaces it.
(function () {
  'use strict';
  var root = document.documentElement;
  var KEY = 'quire-theme';
  var toggleable = root.getAttribute('data-toggle') === 'on';
  // What only works with scripts (the toggle, the drawer button, copy buttons, feedback) is shown from the
  // first paint on, so nothing moves when the deferred scripts run.
  root.classList.add('js');
  if (toggleable) {
    try {
      var stored = window.localStorage.getItem(KEY);
      if (stored === 'dark' || stored === 'light') root.setAttribute('data-theme', stored);
    } catch (e) { /* Storage may be off: the site's default theme applies. */ }
  }
  function current() {
    var set = root.getAttribute('data-theme');
    if (set) return set;
    return window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
  }
  document.addEventListener('DOMContentLoaded', function () {
    var button = document.querySelector('.theme-toggle');
    if (!button || !toggleable) return;
    function label() {
      var other = current() === 'dark' ? 'light' : 'dark';
      button.setAttribute('aria-label', 'Switch to the ' + other + ' theme');
      button.setAttribute('title', 'Switch to the ' + other + ' theme');
    }
    button.hidden = false;
    label();
    button.addEventListener('click', function () {
      var next = current() === 'dark' ? 'light' : 'dark';
      root.setAttribute('data-theme', next);
      try { window.localStorage.setItem(KEY, next); } catch (e) { /* Remembered for this page only. */ }
      label();
    });
  });
})();
