export function renderCorpusTable(results: { filePath: string; messages: { ruleId: string }[] }[]): string;
