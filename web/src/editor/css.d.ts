// KaTeX's stylesheet, imported for its effect (Vite serves it as a file of its own).
declare module 'katex/dist/katex.min.css';
