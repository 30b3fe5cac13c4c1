// A small reader of schema.prisma's model and enum blocks: enough to state what the migrated database must
// contain (tables, columns, types, nullability, keys, uniques, indexes, foreign keys), so the schema-drift test
// can compare it with information_schema. Only the features this project's schema uses are supported; an
// unknown scalar type or attribute argument shape throws rather than being guessed.

export interface ExpectedColumn {
  name: string;
  /** Postgres udt_name: `text`, `uuid`, `timestamptz`, `int4`, an enum's name; arrays start with `_`. */
  udtName: string;
  nullable: boolean;
  /** Fractional-second precision for timestamps, else null. */
  precision: number | null;
  /** Whether the database (not the Prisma client) supplies a default. */
  hasDefault: boolean;
}

export interface ExpectedForeignKey {
  columns: string[];
  referencedTable: string;
  referencedColumns: string[];
  onDelete: string;
  onUpdate: string;
}

export interface ExpectedTable {
  name: string;
  columns: ExpectedColumn[];
  primaryKey: string[];
  uniques: string[][];
  indexes: string[][];
  foreignKeys: ExpectedForeignKey[];
}

export interface ExpectedSchema {
  tables: ExpectedTable[];
  enums: { name: string; values: string[] }[];
}

interface Attribute {
  name: string;
  args: string | null;
}

interface FieldLine {
  name: string;
  type: string;
  optional: boolean;
  list: boolean;
  attributes: Attribute[];
}

interface ModelBlock {
  name: string;
  fields: FieldLine[];
  blockAttributes: Attribute[];
}

const SCALARS: Record<string, string> = {
  String: 'text',
  Int: 'int4',
  BigInt: 'int8',
  Boolean: 'bool',
  Bytes: 'bytea',
  Json: 'jsonb',
  Float: 'float8',
  DateTime: 'timestamp',
};

const NATIVE_TYPES: Record<string, string> = {
  Uuid: 'uuid',
  Text: 'text',
  Timestamptz: 'timestamptz',
  Timestamp: 'timestamp',
  Integer: 'int4',
  BigInt: 'int8',
  JsonB: 'jsonb',
  ByteA: 'bytea',
};

/** Prisma's referential-action names to information_schema's. Prisma defaults: onUpdate Cascade. */
const ACTIONS: Record<string, string> = {
  Cascade: 'CASCADE',
  Restrict: 'RESTRICT',
  NoAction: 'NO ACTION',
  SetNull: 'SET NULL',
  SetDefault: 'SET DEFAULT',
};

/** Defaults the Prisma client generates itself: no DEFAULT in the database. */
const CLIENT_DEFAULTS = /^(uuid|cuid|nanoid|ulid)\(/;

export function parsePrismaSchema(source: string): ExpectedSchema {
  const text = source.replace(/\/\/.*$/gm, '');
  const blocks = [...text.matchAll(/^(model|enum)\s+(\w+)\s*\{([\s\S]*?)^\}/gm)];
  const enumNames = new Map<string, string>();
  const enums: ExpectedSchema['enums'] = [];
  const models: ModelBlock[] = [];
  for (const [, kind, name = '', body = ''] of blocks) {
    const lines = body
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l !== '');
    if (kind === 'enum') {
      const mapped = mapName(lines.filter((l) => l.startsWith('@@')).flatMap(readAttributes)) ?? name;
      enumNames.set(name, mapped);
      enums.push({ name: mapped, values: lines.filter((l) => !l.startsWith('@@')) });
    } else {
      models.push(readModel(name, lines));
    }
  }
  const tableNames = new Map(models.map((m) => [m.name, mapName(m.blockAttributes) ?? m.name]));
  const tables = models.map((m) => toTable(m, models, tableNames, enumNames));
  return { tables, enums };
}

function readModel(name: string, lines: string[]): ModelBlock {
  const fields: FieldLine[] = [];
  const blockAttributes: Attribute[] = [];
  for (const line of lines) {
    if (line.startsWith('@@')) {
      blockAttributes.push(...readAttributes(line));
      continue;
    }
    const match = /^(\w+)\s+(\w+)(\[\])?(\?)?\s*(.*)$/.exec(line);
    if (!match) throw new Error(`cannot read field line in model ${name}: ${line}`);
    const [, fieldName = '', type = '', list, optional, rest = ''] = match;
    fields.push({
      name: fieldName,
      type,
      list: list !== undefined,
      optional: optional !== undefined,
      attributes: readAttributes(rest),
    });
  }
  return { name, fields, blockAttributes };
}

/** Splits `@id @default(uuid()) @db.Uuid` into attributes, keeping balanced parentheses together. */
function readAttributes(text: string): Attribute[] {
  const attributes: Attribute[] = [];
  let i = 0;
  while (i < text.length) {
    if (text[i] !== '@') {
      i += 1;
      continue;
    }
    const nameMatch = /^@@?[\w.]+/.exec(text.slice(i));
    if (!nameMatch) throw new Error(`cannot read attribute at: ${text.slice(i)}`);
    const name = nameMatch[0];
    i += name.length;
    let args: string | null = null;
    if (text[i] === '(') {
      let depth = 0;
      const start = i;
      for (; i < text.length; i += 1) {
        if (text[i] === '(') depth += 1;
        if (text[i] === ')') depth -= 1;
        if (depth === 0) break;
      }
      args = text.slice(start + 1, i);
      i += 1;
    }
    attributes.push({ name, args });
  }
  return attributes;
}

function attr(attributes: Attribute[], name: string): Attribute | undefined {
  return attributes.find((a) => a.name === name);
}

function mapName(attributes: Attribute[]): string | undefined {
  const map = attr(attributes, '@@map') ?? attr(attributes, '@map');
  return map?.args ? unquote(map.args) : undefined;
}

function unquote(value: string): string {
  const match = /^\s*"([^"]*)"\s*$/.exec(value);
  if (!match?.[1]) throw new Error(`expected a string literal, got ${value}`);
  return match[1];
}

/** `[a, b]` (or `fields: [a, b]` inside a larger argument list) to field names. */
function fieldList(args: string, key?: string): string[] {
  const pattern = key ? new RegExp(`${key}\\s*:\\s*\\[([^\\]]*)\\]`) : /^\s*(?:fields\s*:\s*)?\[([^\]]*)\]/;
  const match = pattern.exec(args);
  if (!match) throw new Error(`expected a field list in (${args})`);
  return (match[1] ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

function toTable(
  model: ModelBlock,
  models: ModelBlock[],
  tableNames: Map<string, string>,
  enumNames: Map<string, string>,
): ExpectedTable {
  const modelNames = new Set(models.map((m) => m.name));
  const scalarFields = model.fields.filter((f) => !modelNames.has(f.type));
  const columnOf = (fieldName: string, owner: ModelBlock = model): string => {
    const field = owner.fields.find((f) => f.name === fieldName);
    if (!field) throw new Error(`model ${owner.name} has no field ${fieldName}`);
    return mapName(field.attributes) ?? field.name;
  };

  const columns = scalarFields.map((f) => toColumn(f, enumNames, model.name));
  const idField = scalarFields.find((f) => attr(f.attributes, '@id'));
  const blockId = attr(model.blockAttributes, '@@id');
  const primaryKey = idField
    ? [columnOf(idField.name)]
    : blockId?.args
      ? fieldList(blockId.args).map((n) => columnOf(n))
      : [];
  const uniques = [
    ...scalarFields.filter((f) => attr(f.attributes, '@unique')).map((f) => [columnOf(f.name)]),
    ...model.blockAttributes
      .filter((a) => a.name === '@@unique')
      .map((a) => fieldList(a.args ?? '').map((n) => columnOf(n))),
  ];
  const indexes = model.blockAttributes
    .filter((a) => a.name === '@@index')
    .map((a) => fieldList(a.args ?? '').map((n) => columnOf(n)));

  const foreignKeys: ExpectedForeignKey[] = [];
  for (const field of model.fields.filter((f) => modelNames.has(f.type))) {
    const relation = attr(field.attributes, '@relation');
    if (!relation?.args || !/fields\s*:/.test(relation.args)) continue; // the back-relation side
    const target = models.find((m) => m.name === field.type);
    if (!target) throw new Error(`unknown model ${field.type}`);
    const onDelete = /onDelete\s*:\s*(\w+)/.exec(relation.args)?.[1];
    const onUpdate = /onUpdate\s*:\s*(\w+)/.exec(relation.args)?.[1] ?? 'Cascade';
    // Prisma's default onDelete: SetNull for optional relations, Restrict for required ones.
    const fallbackDelete = field.optional ? 'SetNull' : 'Restrict';
    foreignKeys.push({
      columns: fieldList(relation.args, 'fields').map((n) => columnOf(n)),
      referencedTable: tableNames.get(target.name) ?? target.name,
      referencedColumns: fieldList(relation.args, 'references').map((n) => columnOf(n, target)),
      onDelete: ACTIONS[onDelete ?? fallbackDelete] ?? 'unknown',
      onUpdate: ACTIONS[onUpdate] ?? 'unknown',
    });
  }
  return {
    name: tableNames.get(model.name) ?? model.name,
    columns,
    primaryKey,
    uniques,
    indexes,
    foreignKeys,
  };
}

function toColumn(field: FieldLine, enumNames: Map<string, string>, modelName: string): ExpectedColumn {
  const native = field.attributes.find((a) => a.name.startsWith('@db.'));
  let udtName: string | undefined;
  let precision: number | null = null;
  if (native) {
    udtName = NATIVE_TYPES[native.name.slice(4)];
    if (native.args) precision = Number(native.args);
  } else {
    udtName = enumNames.get(field.type) ?? SCALARS[field.type];
    if (field.type === 'DateTime') precision = 3;
  }
  if (!udtName) throw new Error(`unsupported type ${field.type} of ${modelName}.${field.name}`);
  const def = attr(field.attributes, '@default');
  return {
    name: mapName(field.attributes) ?? field.name,
    udtName: field.list ? `_${udtName}` : udtName,
    // Prisma creates scalar lists as nullable columns (it reads NULL as []).
    nullable: field.optional || field.list,
    precision,
    hasDefault: def !== undefined && !CLIENT_DEFAULTS.test(def.args ?? ''),
  };
}
