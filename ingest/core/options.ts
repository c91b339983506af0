import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { z } from 'zod';

/** A command line the operator got wrong: the CLI prints the message and the usage, exit code 2. */
export class UsageError extends Error {}

/**
 * The options of a job as one zod object: each key is an option's `--kebab-case` name, each
 * value a string or boolean schema (optional or not), its `.describe()` the placeholder the
 * usage shows (`<file>`). Rules between options go in the object's superRefine, their message
 * written for the operator ("--download needs --part ..."). Parsing, the typed result and the
 * usage line all come from it.
 */
export type OptionSchema = z.ZodObject<Record<string, z.ZodType>>;

type Kind = 'string' | 'boolean';
interface OptionInfo { name: string; kind: Kind; required: boolean; placeholder: string | undefined }

/** What an option's schema is made of, through optional/default/refine/transform wrappers. */
function inspect(name: string, schema: z.ZodType): OptionInfo {
  let s = schema as z.ZodType;
  let required = true;
  let placeholder = s.description;
  for (;;) {
    const def = (s as unknown as { _zod: { def: { type: string; innerType?: z.ZodType; in?: z.ZodType } } })._zod.def;
    if (def.type === 'optional' || def.type === 'default') { required = false; s = def.innerType!; }
    else if (def.type === 'nullable') s = def.innerType!;
    else if (def.type === 'pipe') s = def.in!;
    else if (def.type === 'string' || def.type === 'enum') return { name, kind: 'string', required, placeholder: placeholder ?? s.description };
    else if (def.type === 'boolean') return { name, kind: 'boolean', required, placeholder: undefined };
    else throw new Error(`option --${name}: a string or boolean schema is needed, not ${def.type}`);
    placeholder ??= s.description;
  }
}

export interface ParsedOptions<S extends OptionSchema> {
  schema: S;
  /** node:util parseArgs options. */
  parseArgsOptions: Record<string, { type: Kind }>;
  /** The options part of the usage line: required ones bare, the others in brackets. */
  usage: string;
  /** Parses and validates argv; any problem is a UsageError with a message for the operator. */
  parse(argv: string[]): z.output<S>;
}

export function commandOptions<S extends OptionSchema>(schema: S): ParsedOptions<S> {
  const infos = Object.entries(schema.shape).map(([name, s]) => inspect(name, s));
  const parseArgsOptions = Object.fromEntries(infos.map((o) => [o.name, { type: o.kind }]));
  const usage = infos.map((o) => {
    const text = o.kind === 'boolean' ? `--${o.name}` : `--${o.name} ${o.placeholder ?? '<value>'}`;
    return o.required ? text : `[${text}]`;
  }).join(' ');
  return {
    schema, parseArgsOptions, usage,
    parse(argv) {
      let values: Record<string, unknown>;
      try {
        values = parseArgs({ args: argv, options: parseArgsOptions, allowPositionals: false, strict: true }).values;
      } catch (e) {
        throw new UsageError((e as Error).message);
      }
      const parsed = schema.safeParse(values);
      if (parsed.success) return parsed.data;
      throw new UsageError(operatorMessage(parsed.error.issues[0]!));
    },
  };
}

/** An issue as the operator reads it: the schema's own message when it names the option, else one that does. */
function operatorMessage(issue: z.core.$ZodIssue): string {
  const name = issue.path.length > 0 ? `--${String(issue.path[0])}` : '';
  if (issue.message.startsWith('--') || issue.message.startsWith('input not found')) return issue.message;
  if (issue.code === 'invalid_type' && (issue as { input?: unknown }).input === undefined) return `${name} is required`;
  return name ? `${name}: ${issue.message}` : issue.message;
}

/** Option builders with the platform's wording. */
export const option = {
  /** A value shown as `placeholder` in the usage. */
  text: (placeholder: string) => z.string().describe(placeholder),
  /** A file or folder that must exist (checked at parse time). */
  path: (placeholder: string) => z.string().refine((p) => existsSync(p), { error: (iss) => `input not found: ${String(iss.input)}` }).describe(placeholder),
  /** One of an enum's values: the message names the option and the choices. */
  oneOf: <const T extends Record<string, string>>(name: string, values: z.ZodEnum<T>, placeholder = `<${values.options.join('|')}>`) =>
    z.enum(values.enum, { error: () => `--${name} must be one of ${values.options.join(', ')}` }).describe(placeholder),
  flag: () => z.boolean().optional(),
};
