// The drawing frame of the reader's Mermaid diagrams. Mermaid writes <style> elements while it draws, which
// the reader's own policy forbids; this frame, from Quire's own origin and holding nothing but Mermaid, has a
// policy that allows inline styles (and still only Quire's own scripts). The page that embeds it sends each
// diagram's source; the frame answers with the SVG as text and its style rules apart, or with the error
// Mermaid gave.
(function () {
  'use strict';
  var mermaid = window.mermaid;
  var parentOrigin = window.location.origin;
  var configured = null;
  window.addEventListener('message', function (event) {
    if (event.origin !== parentOrigin || event.source !== window.parent) return;
    var message = event.data || {};
    if (message.type !== 'quire-diagram' || typeof message.source !== 'string' || typeof message.id !== 'string') return;
    var theme = message.dark ? 'dark' : 'default';
    if (configured !== theme) {
      mermaid.initialize({ startOnLoad: false, securityLevel: 'strict', theme: theme });
      configured = theme;
    }
    mermaid.render(message.id, message.source).then(
      function (result) {
        // The page's policy refuses <style> elements even in a document it only parses: send the rules apart.
        var svg = new DOMParser().parseFromString(result.svg, 'image/svg+xml');
        var css = [];
        var styles = svg.querySelectorAll('style');
        for (var i = 0; i < styles.length; i++) {
          css.push(styles[i].textContent || '');
          styles[i].parentNode.removeChild(styles[i]);
        }
        var text = new XMLSerializer().serializeToString(svg.documentElement);
        window.parent.postMessage({ type: 'quire-diagram', id: message.id, svg: text, css: css.join('\n') }, parentOrigin);
      },
      function (error) {
        var stray = document.getElementById('d' + message.id);
        if (stray) stray.remove();
        window.parent.postMessage({ type: 'quire-diagram', id: message.id, error: String((error && error.message) || error) }, parentOrigin);
      },
    );
  });
  window.parent.postMessage({ type: 'quire-diagram-ready' }, parentOrigin);
})();
