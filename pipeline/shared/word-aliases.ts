/**
 * Words with older aliases (a command's choices, a policy's vocabulary) as refusals and help
 * texts list them, each alias next to the word it stands for, so that a reader of either
 * vocabulary finds their word: "refuse (alias strict), extrapolate (alias warn)".
 */
export function wordsWithAliases(words: readonly string[], aliases: Readonly<Record<string, string>>, separator = ", "): string {
  return words
    .map((word) => {
      const older = Object.keys(aliases).filter((alias) => aliases[alias] === word);
      return older.length === 0 ? word : `${word} (alias ${older.join(", ")})`;
    })
    .join(separator);
}
