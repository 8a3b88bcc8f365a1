import type { Queryable } from './database.server'

export type DocumentKind = 'terms_of_service' | 'creator_agreement'

/**
 * Record the given document versions as published, so that
 * public.give_consent accepts them. Idempotent: a version published before
 * keeps its first publication time. Runs on the owner connection (no API
 * role may write public.published_documents).
 */
export async function publishDocumentVersions(
	db: Queryable,
	versions: Readonly<Record<DocumentKind, string>>,
): Promise<void> {
	const entries = Object.entries(versions)
	await db.query(
		`insert into public.published_documents (kind, version)
		 select * from unnest($1::text[], $2::text[])
		 on conflict (kind, version) do nothing`,
		[entries.map(([kind]) => kind), entries.map(([, version]) => version)],
	)
}
