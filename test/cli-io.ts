/** Run the `ckpt` CLI in-process and capture what it prints. */
import { main } from "../pipeline/cli";

export async function runCli(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const code = await main(argv, {
    stdout: (text) => (stdout += text.endsWith("\n") ? text : `${text}\n`),
    stderr: (text) => (stderr += text.endsWith("\n") ? text : `${text}\n`),
  });
  return { code, stdout, stderr };
}
