/** `ckpt` run from the sources (for tests that need the CLI as a separate process, e.g. to SIGKILL it). */
import { main } from "../../pipeline/cli";

main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
