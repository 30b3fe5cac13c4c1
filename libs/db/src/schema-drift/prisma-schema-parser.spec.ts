import { parsePrismaSchema } from './prisma-schema-parser';

const schema = `
// a comment with model Fake { }
enum Color {
  red
  blue

  @@map("color")
}

/// docs
model Parent {
  id      String   @id @default(uuid()) @db.Uuid
  email   String   @unique
  at      DateTime @default(now()) @map("created_at") @db.Timestamptz(3)
  tags    String[]
  n       Int      @default(1)
  color   Color?
  kids    Child[]

  @@map("parents")
}

model Child {
  parentId String  @map("parent_id") @db.Uuid
  slot     BigInt
  data     Json    @default("{}")
  when     DateTime
  parent   Parent  @relation(fields: [parentId], references: [id], onDelete: Cascade)

  @@id([parentId, slot])
  @@unique([slot, parentId])
  @@index([slot])
  @@map("children")
}
`;

describe('parsePrismaSchema', () => {
  const parsed = parsePrismaSchema(schema);
  const parents = parsed.tables.find((t) => t.name === 'parents');
  const children = parsed.tables.find((t) => t.name === 'children');

  it('reads enums with their mapped names', () => {
    expect(parsed.enums).toEqual([{ name: 'color', values: ['red', 'blue'] }]);
  });

  it('maps models to tables and skips relation fields and comments', () => {
    expect(parsed.tables.map((t) => t.name)).toEqual(['parents', 'children']);
    expect(parents?.columns.map((c) => c.name)).toEqual(['id', 'email', 'created_at', 'tags', 'n', 'color']);
  });

  it('derives types, nullability, precision and database defaults', () => {
    expect(parents?.columns).toEqual([
      { name: 'id', udtName: 'uuid', nullable: false, precision: null, hasDefault: false },
      { name: 'email', udtName: 'text', nullable: false, precision: null, hasDefault: false },
      { name: 'created_at', udtName: 'timestamptz', nullable: false, precision: 3, hasDefault: true },
      { name: 'tags', udtName: '_text', nullable: true, precision: null, hasDefault: false },
      { name: 'n', udtName: 'int4', nullable: false, precision: null, hasDefault: true },
      { name: 'color', udtName: 'color', nullable: true, precision: null, hasDefault: false },
    ]);
    expect(children?.columns.find((c) => c.name === 'when')).toMatchObject({
      udtName: 'timestamp',
      precision: 3,
    });
    expect(children?.columns.find((c) => c.name === 'data')).toMatchObject({
      udtName: 'jsonb',
      hasDefault: true,
    });
  });

  it('reads keys, uniques, indexes and foreign keys in column names', () => {
    expect(parents?.primaryKey).toEqual(['id']);
    expect(parents?.uniques).toEqual([['email']]);
    expect(children?.primaryKey).toEqual(['parent_id', 'slot']);
    expect(children?.uniques).toEqual([['slot', 'parent_id']]);
    expect(children?.indexes).toEqual([['slot']]);
    expect(children?.foreignKeys).toEqual([
      {
        columns: ['parent_id'],
        referencedTable: 'parents',
        referencedColumns: ['id'],
        onDelete: 'CASCADE',
        onUpdate: 'CASCADE',
      },
    ]);
  });

  it('refuses a type it does not know instead of guessing', () => {
    expect(() => parsePrismaSchema('model X {\n  id Decimal @id\n}\n')).toThrow('unsupported type Decimal');
  });
});
