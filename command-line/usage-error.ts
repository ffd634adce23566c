/** A command line the command cannot run: the message names the flag and what is wrong; the frame prints it with the usage (exit 2). */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}
