/**
 * Heading levels as the source wrote them. Quire's document model has three heading levels, and `#` and
 * `##` both read as the first; written anew, that level is `##` (the page's title is its `#`). A translated
 * page is written over its source's Markdown, keeping the bytes of every unchanged line, but a translated
 * heading is a changed line, written anew: `# Install` came back as `## Instala`. This puts back the
 * number of `#` the source used for each heading of the same level, the headings matched in order (a
 * translation changes no block's kind or order). When the headings do not pair up, nothing is changed.
 */
interface AtxHeading {
  line: number;
  marks: number;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const ATX = /^ {0,3}(#{1,6})(?=[ \t]|$)/;

function atxHeadings(lines: string[]): AtxHeading[] {
  const headings: AtxHeading[] = [];
  let fence: string | undefined;
  lines.forEach((text, line) => {
    const opening = FENCE.exec(text);
    if (fence) {
      if (opening && opening[1][0] === fence[0] && opening[1].length >= fence.length) fence = undefined;
      return;
    }
    if (opening) {
      fence = opening[1];
      return;
    }
    const heading = ATX.exec(text);
    if (heading) headings.push({ line, marks: heading[1].length });
  });
  return headings;
}

/** The model's level of an ATX heading: `#` and `##` are the first level, `###` the second, deeper ones the third. */
function level(marks: number): number {
  return marks <= 2 ? 1 : marks === 3 ? 2 : 3;
}

export function keepHeadingMarks(source: string, written: string): string {
  const sourceHeadings = atxHeadings(source.split('\n'));
  const lines = written.split('\n');
  const writtenHeadings = atxHeadings(lines);
  if (sourceHeadings.length !== writtenHeadings.length) return written;
  sourceHeadings.forEach((from, index) => {
    const to = writtenHeadings[index];
    if (from.marks === to.marks || level(from.marks) !== level(to.marks)) return;
    lines[to.line] = lines[to.line].replace(ATX, (match) => match.replace(/#+/, '#'.repeat(from.marks)));
  });
  return lines.join('\n');
}
