/** A bounded capture of a child process's stdout or stderr for its run folder. */

/** Keep the last `limitBytes` of a stream's output (what explains a failure is at its end). */
export class OutputTail {
  private parts: Buffer[] = [];
  private length = 0;
  private dropped = 0;
  constructor(private readonly limitBytes = 1 << 20) {}
  push(chunk: Buffer): void {
    this.parts.push(chunk);
    this.length += chunk.length;
    while (this.length > this.limitBytes && this.parts.length > 1) {
      const first = this.parts.shift()!;
      this.length -= first.length;
      this.dropped += first.length;
    }
  }
  text(): string {
    const body = Buffer.concat(this.parts).toString("utf8");
    return this.dropped > 0 ? `[… ${this.dropped} earlier bytes dropped …]\n${body}` : body;
  }
}
