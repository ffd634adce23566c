/** Where a command writes: its results and lines on `out`, its progress and failures on `err`. */
export interface Io {
  out: (line: string) => void;
  err: (line: string) => void;
}
