import { describeMachine, machineMermaid, machineTable } from '../../src/core/views/machine-description';

/** docs/concepts.md's generated sections (once the README's), by marker name: `<!-- machine:NAME -->` … `<!-- /machine:NAME -->`. */
export function readmeMachineSections(): Record<'table' | 'mermaid', string> {
  const machine = describeMachine();
  return { table: machineTable(machine), mermaid: `\`\`\`mermaid\n${machineMermaid(machine)}\`\`\`\n` };
}

/** The text between the markers of section `name`, or null when the README lacks them. */
export function sectionOf(text: string, name: string): string | null {
  const match = new RegExp(`<!-- machine:${name} -->\\n([\\s\\S]*?)<!-- /machine:${name} -->`).exec(text);
  return match === null ? null : match[1]!;
}

/** `text` with section `name` replaced by `body`. @throws Error when the markers are missing */
export function replaceSection(text: string, name: string, body: string): string {
  if (sectionOf(text, name) === null) throw new Error(`docs/concepts.md has no <!-- machine:${name} --> section`);
  return text.replace(
    new RegExp(`(<!-- machine:${name} -->\\n)[\\s\\S]*?(<!-- /machine:${name} -->)`),
    (_all, open: string, close: string) => `${open}${body}${close}`,
  );
}
