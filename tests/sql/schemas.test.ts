import { appendFileSync, cpSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { describe, expect, test } from 'vitest'
import { diffSchemas } from '../../scripts/db-diff'

/**
 * supabase/schemas against supabase/migrations (docs/decisions/047-declarative-schemas.md):
 * npm test's `schemas` phase checks that they agree; this checks that the
 * check sees a change, of a kind migra writes (a policy) and of the kinds it
 * does not (a grant on a function, a comment). On a Postgres server only, as
 * db:diff itself.
 */
const describeWithPostgres = process.env.TEST_DATABASE_URL ? describe : describe.skip

describeWithPostgres('db:diff', () => {
	test('a changed schema file differs from the migrations, each change named', async () => {
		const dir = mkdtempSync(join(tmpdir(), 'dareboost-supabase-'))
		try {
			cpSync(resolve('supabase'), dir, { recursive: true })
			appendFileSync(
				join(dir, 'schemas', 'dares.sql'),
				`\ngrant execute on function public.boost_dare(uuid, integer, text) to anon;
comment on table public.boosts is 'changed';
alter policy "Shown dares are public" on public.dares using (status not in ('held', 'removed', 'rejected'));\n`,
			)
			const diff = await diffSchemas(process.env.TEST_DATABASE_URL!, dir)
			expect(diff.facts).toContainEqual(expect.stringMatching(/^\+ function public\.boost_dare\(.* acl .*anon=X/))
			expect(diff.facts).toContainEqual(expect.stringMatching(/^\+ relation public\.boosts .* comment changed$/))
			expect(diff.sql).toMatch(/create policy "Shown dares are public"[\s\S]*rejected/)
		} finally {
			rmSync(dir, { recursive: true, force: true })
		}
	}, 120_000)
})
