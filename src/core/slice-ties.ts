// What one slice of a file, read apart from the rest (CheckOptions.apart), owes to the lines outside it: the keys
// its readers said its lines belong to, and whether some line looked back past the slice's start. The CLI puts
// slices together only when no two share a key (src/cli/session-slices.ts).
import type { SliceTies } from './formats/adapter';

export class SliceKeys implements SliceTies {
  readonly keys = new Set<string>();
  tied = false;

  key(key: string): void {
    this.keys.add(key);
  }

  has(key: string): boolean {
    return this.keys.has(key);
  }

  tie(): void {
    this.tied = true;
  }
}
