/** The parts of fontkit and linebreak (pdfkit's own dependencies) that the PDF renderer uses; neither ships types. */
declare module 'fontkit' {
  export interface Font {
    hasGlyphForCodePoint(codePoint: number): boolean;
    unitsPerEm: number;
  }
  export interface FontCollection {
    fonts: Font[];
  }
  export function create(buffer: Buffer, postscriptName?: string): Font | FontCollection;
}

declare module 'linebreak' {
  export interface Break {
    /** Where the line may end (a string index: the next line starts here). */
    position: number;
    /** A forced break (a line feed). */
    required: boolean;
  }
  export default class LineBreaker {
    constructor(text: string);
    nextBreak(): Break | null;
  }
}
