// Draws the page's Mermaid diagrams (<pre class="mermaid">). Loaded only on pages that have a diagram;
// without JavaScript the diagram's source stays readable.
//
// The reader's policy forbids <style> elements, and Mermaid writes them while it draws. So Mermaid runs in a
// hidden frame of Quire's own (diagram-frame.html, whose policy allows them), and sends each diagram back as
// SVG text without <style> elements, and its style rules apart. Here the rules go into a constructed
// stylesheet — the CSSOM, which the policy allows — and the SVG, parsed in an inert document where nothing
// runs, joins the page.
(function () {
  'use strict';
  var blocks = document.querySelectorAll('pre.mermaid');
  var script = document.currentScript;
  if (!blocks.length || !script || typeof DOMParser === 'undefined' || !('adoptedStyleSheets' in document)) return;
  var frameUrl = script.src.replace(/diagrams\.js(\?.*)?$/, 'diagram-frame.html');
  var origin = window.location.origin;
  var dark = window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)').matches;

  var sheet = new CSSStyleSheet();
  document.adoptedStyleSheets = document.adoptedStyleSheets.concat([sheet]);
  function adopt(cssText) {
    var rules = new CSSStyleSheet();
    try {
      rules.replaceSync(cssText);
    } catch (error) {
      return;
    }
    for (var i = 0; i < rules.cssRules.length; i++) {
      try {
        sheet.insertRule(rules.cssRules[i].cssText, sheet.cssRules.length);
      } catch (error) {
        // A rule this document cannot take is left out; the diagram is still drawn.
      }
    }
  }

  // An SVG drawn by Mermaid (text, without <style>) and its rules → an element of this document.
  function place(svgText, cssText) {
    var inert = new DOMParser().parseFromString(svgText, 'image/svg+xml');
    var root = inert.documentElement;
    if (!root || root.namespaceURI !== 'http://www.w3.org/2000/svg' || root.localName !== 'svg') return null;
    if (root.querySelector('style')) return null;
    adopt(cssText);
    var scripts = root.querySelectorAll('script, foreignObject script');
    for (var j = 0; j < scripts.length; j++) scripts[j].parentNode.removeChild(scripts[j]);
    return document.importNode(root, true);
  }

  var pending = {};
  var frame = document.createElement('iframe');
  frame.src = frameUrl;
  frame.title = 'Diagram drawing';
  frame.setAttribute('aria-hidden', 'true');
  frame.tabIndex = -1;
  frame.style.position = 'absolute';
  frame.style.left = '-10000px';
  frame.style.top = '0';
  frame.style.width = '1200px';
  frame.style.height = '900px';
  frame.style.border = '0';

  window.addEventListener('message', function (event) {
    if (event.origin !== origin || event.source !== frame.contentWindow) return;
    var message = event.data || {};
    if (message.type === 'quire-diagram-ready') {
      Object.keys(pending).forEach(function (id) {
        frame.contentWindow.postMessage({ type: 'quire-diagram', id: id, source: pending[id].textContent, dark: dark }, origin);
      });
      return;
    }
    if (message.type !== 'quire-diagram' || !pending[message.id]) return;
    var block = pending[message.id];
    delete pending[message.id];
    // A diagram Mermaid cannot read keeps its source, as without JavaScript.
    var svg = typeof message.svg === 'string' ? place(message.svg, String(message.css || '')) : null;
    if (svg) {
      var figure = document.createElement('div');
      figure.className = 'mermaid-diagram';
      figure.setAttribute('role', 'img');
      figure.setAttribute('aria-label', 'Diagram');
      figure.appendChild(svg);
      block.replaceWith(figure);
    }
    if (!Object.keys(pending).length) frame.remove();
  });

  Array.prototype.forEach.call(blocks, function (block, index) {
    pending['quire-diagram-' + index] = block;
  });
  document.body.appendChild(frame);
})();
