// The reader's conveniences, all optional (every page reads and navigates without them): copy buttons on
// code and on the page's Markdown, copy-link on heading anchors, the mobile navigation drawer, the
// "Was this page helpful?" form, and first-party insights (a page view; nothing personal, no cookie).
(function () {
  'use strict';
  var body = document.body;
  var endpoint = body.getAttribute('data-insights');

  function send(event) {
    if (!endpoint || !window.fetch) return;
    event.path = window.location.pathname;
    event.page = body.getAttribute('data-page') || null;
    event.siteSpace = body.getAttribute('data-site-space') || null;
    fetch(endpoint, { method: 'POST', keepalive: true, credentials: 'same-origin', headers: { 'content-type': 'application/json' }, body: JSON.stringify(event) })
      .catch(function () { /* Insights never get in the reader's way. */ });
  }
  window.quireInsights = send;

  function copy(text, button, done) {
    if (!navigator.clipboard) return;
    navigator.clipboard.writeText(text).then(function () {
      var before = button.textContent;
      button.textContent = done;
      button.setAttribute('data-copied', '');
      setTimeout(function () { button.textContent = before; button.removeAttribute('data-copied'); }, 1500);
    });
  }

  // Code blocks: a copy button that copies the code's text (line numbers are drawn by CSS, not copied).
  Array.prototype.forEach.call(document.querySelectorAll('.page-content .code-block'), function (block) {
    var code = block.querySelector('pre code');
    if (!code) return;
    var button = document.createElement('button');
    button.type = 'button';
    button.className = 'copy-code';
    button.textContent = 'Copy';
    button.setAttribute('aria-label', 'Copy the code');
    button.addEventListener('click', function () { copy(code.textContent, button, 'Copied'); });
    block.appendChild(button);
  });

  // Heading anchors: the link is copied as well as followed.
  document.addEventListener('click', function (event) {
    var anchor = event.target.closest && event.target.closest('.heading-anchor');
    if (anchor && navigator.clipboard) navigator.clipboard.writeText(anchor.href).catch(function () {});
  });

  // The page as Markdown.
  var copyPage = document.querySelector('.copy-page');
  if (copyPage && !(window.fetch && navigator.clipboard)) copyPage.hidden = true;
  if (copyPage && window.fetch && navigator.clipboard) {
    copyPage.addEventListener('click', function () {
      fetch(copyPage.getAttribute('data-markdown'), { credentials: 'same-origin' })
        .then(function (r) { return r.text(); })
        .then(function (text) { copy(text, copyPage, 'Copied'); });
    });
  }

  // The navigation drawer on small screens.
  var toggle = document.querySelector('.nav-toggle');
  var sidebar = document.querySelector('.site-sidebar');
  if (toggle && !sidebar) toggle.hidden = true;
  if (toggle && sidebar) {
    sidebar.id = sidebar.id || 'site-sidebar';
    toggle.setAttribute('aria-controls', sidebar.id);
    var setOpen = function (open) {
      body.classList.toggle('nav-open', open);
      toggle.setAttribute('aria-expanded', open ? 'true' : 'false');
      toggle.setAttribute('aria-label', open ? 'Close the navigation' : 'Open the navigation');
    };
    toggle.addEventListener('click', function () { setOpen(!body.classList.contains('nav-open')); });
    document.addEventListener('keydown', function (event) {
      if (event.key === 'Escape' && body.classList.contains('nav-open')) { setOpen(false); toggle.focus(); }
    });
  }

  // Was this page helpful?
  var feedback = document.querySelector('form[data-feedback]');
  if (feedback) {
    Array.prototype.forEach.call(feedback.querySelectorAll('button[name="rating"]'), function (button) {
      button.addEventListener('click', function () {
        send({ type: 'page_post_feedback', rating: button.value });
        Array.prototype.forEach.call(feedback.querySelectorAll('button'), function (b) { b.disabled = true; b.setAttribute('aria-pressed', b === button ? 'true' : 'false'); });
        feedback.querySelector('.feedback-thanks').textContent = 'Thank you for your feedback.';
      });
    });
  }

  if (body.getAttribute('data-page')) send({ type: 'page_view' });
})();
