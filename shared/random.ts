// Owns the deterministic randomness of the sandbox: the same seed always gives the same identity,
// account or reference, so a client's tests are repeatable. Shared: the sandbox's people (people.ts) and
// the partner emulators' made-up documents draw from it too.
import { createHash } from 'node:crypto';

export class SeededRandom {
  private bytes: Buffer;
  private i = 0;

  constructor(seed: string) {
    this.bytes = createHash('sha512').update(seed).digest();
  }

  /** An integer in [0, n). */
  int(n: number): number {
    if (this.i + 4 > this.bytes.length) {
      this.bytes = createHash('sha512').update(this.bytes).digest();
      this.i = 0;
    }
    const v = this.bytes.readUInt32BE(this.i);
    this.i += 4;
    return v % n;
  }

  pick<T>(list: readonly T[]): T {
    return list[this.int(list.length)]!;
  }

  digits(n: number): string {
    let s = '';
    for (let k = 0; k < n; k++) s += String(this.int(10));
    return s;
  }
}
