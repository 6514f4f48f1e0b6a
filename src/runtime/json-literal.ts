/** Why a literal is not JSON, in a few words, or undefined when it parses. */
export function jsonProblem(text: string): string | undefined {
  try {
    JSON.parse(text);
    return undefined;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return message.replace(/^JSON\.parse: /, '').replace(/\s*\(line \d+ column \d+ of the JSON data\)/, '');
  }
}
