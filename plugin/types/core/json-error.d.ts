/** What is wrong with a JSON text, and where (1-based line and column, counted in characters). */
export interface JsonSyntaxProblem {
    readonly line: number;
    readonly column: number;
    readonly problem: string;
}
/**
 * The first syntax error of `text`, located by line and column and described in words that quote none of it.
 * Returns null when the text is valid JSON (the caller then has no syntax error to report).
 */
export declare function locateJsonError(text: string): JsonSyntaxProblem | null;
/** "line 3, column 14: unterminated string", or a plain phrase when the text is valid. */
export declare function describeJsonError(text: string): string;
