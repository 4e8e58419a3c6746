// Types for the parts of the `qrcode` package's encoder that qr.ts uses (CommonJS modules, imported
// one by one to keep the bundle small).
declare module 'qrcode/lib/core/alignment-pattern.js' {
  const m: { getPositions(version: number): Array<[number, number]> };
  export default m;
}
declare module 'qrcode/lib/core/finder-pattern.js' {
  const m: { getPositions(version: number): Array<[number, number]> };
  export default m;
}
declare module 'qrcode/lib/core/bit-buffer.js' {
  class BitBuffer {
    buffer: number[];
    put(num: number, length: number): void;
    putBit(bit: boolean): void;
    getLengthInBits(): number;
  }
  export default BitBuffer;
}
declare module 'qrcode/lib/core/bit-matrix.js' {
  class BitMatrix {
    constructor(size: number);
    size: number;
    data: Uint8Array;
    set(row: number, col: number, value: boolean, reserved?: boolean): void;
    isReserved(row: number, col: number): boolean;
  }
  export default BitMatrix;
}
declare module 'qrcode/lib/core/byte-data.js' {
  class ByteData {
    constructor(data: string);
    getLength(): number;
    write(buffer: unknown): void;
  }
  export default ByteData;
}
declare module 'qrcode/lib/core/error-correction-level.js' {
  const m: { L: { bit: number }; M: { bit: number }; Q: { bit: number }; H: { bit: number } };
  export default m;
}
declare module 'qrcode/lib/core/error-correction-code.js' {
  const m: {
    getBlocksCount(version: number, level: { bit: number }): number;
    getTotalCodewordsCount(version: number, level: { bit: number }): number;
  };
  export default m;
}
declare module 'qrcode/lib/core/format-info.js' {
  const m: { getEncodedBits(level: { bit: number }, mask: number): number };
  export default m;
}
declare module 'qrcode/lib/core/mask-pattern.js' {
  const m: {
    getBestMask(matrix: unknown, setupFormat: (pattern: number) => void): number;
    applyMask(pattern: number, matrix: unknown): void;
  };
  export default m;
}
declare module 'qrcode/lib/core/mode.js' {
  const m: { BYTE: { bit: number }; getCharCountIndicator(mode: { bit: number }, version: number): number };
  export default m;
}
declare module 'qrcode/lib/core/reed-solomon-encoder.js' {
  class ReedSolomonEncoder {
    constructor(degree: number);
    encode(data: Uint8Array): Uint8Array;
  }
  export default ReedSolomonEncoder;
}
declare module 'qrcode/lib/core/utils.js' {
  const m: { getSymbolSize(version: number): number; getSymbolTotalCodewords(version: number): number };
  export default m;
}
declare module 'qrcode/lib/core/version.js' {
  const m: { getBestVersionForData(segment: unknown, level: { bit: number }): number | undefined; getEncodedBits(version: number): number };
  export default m;
}
