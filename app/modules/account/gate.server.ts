import type { Queryable } from '#app/db/database.server'

/**
 * Which account step a signed-in viewer still owes (docs/product.md §2.7): a
 * username first, then the current terms version. Read as the viewer, so
 * RLS and has_consented decide.
 */
export type AccountGate = 'complete-profile' | 'terms' | null

export async function accountGate(tx: Queryable, termsVersion: string, creatorAgreementVersion: string) {
	const { rows } = await tx.query<{ username: string | null; terms_of_service: boolean | null }>(
		`select p.username, c.terms_of_service
		 from (select 1) as one
		 left join public.profiles p on p.id = auth.uid()
		 left join public.has_consented($1, $2) c on true`,
		[termsVersion, creatorAgreementVersion],
	)
	const row = rows[0]
	const username = row?.username ?? null
	// A failed consent lookup counts as not consented (docs/product.md §10.5).
	const gate: AccountGate = !username ? 'complete-profile' : row?.terms_of_service ? null : 'terms'
	return { username, gate }
}
