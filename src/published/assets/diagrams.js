// Draws the page's Mermaid diagrams (<pre class="mermaid">) with the Mermaid script Quire serves itself.
// Loaded only on pages that have a diagram; without JavaScript the diagram's source stays readable.
(function () {
  'use strict';
  if (!window.mermaid) return;
  var dark = window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)').matches;
  window.mermaid.initialize({ startOnLoad: false, securityLevel: 'strict', theme: dark ? 'dark' : 'default' });
  window.mermaid.run({ querySelector: 'pre.mermaid' });
})();
