import { parseWithZod } from '@conform-to/zod/v4'
import type { RouterContextProvider } from 'react-router'
import { redirectWithError, redirectWithSuccess } from 'remix-toast'
import { toAppError, type Queryable } from '#app/db/database.server'
import { translateError } from '#app/i18n/errors'
import { getInstance } from '#app/i18n/i18next.server'
import { dataWithFlash } from '#app/modules/flash/flash.server'
import { queryAsViewer } from '#app/utils/db.server'
import { BLOCKED_TERMS_INTENT, BlockedTermsSchema, blockedTermsOf, UnbanSchema, type ModerationSettings } from './settings-section'

type Ctx = Readonly<RouterContextProvider>

/**
 * The settings page's moderation data, read as the viewer in the loader's
 * transaction: their blocked terms and bans (RLS and my_bans show only their
 * own) and their restrictions. `isCreator`: they have a linked channel
 * (docs/product.md §2.3); someone who unlinked every channel still sees the
 * sections while terms or bans of theirs are left.
 */
export async function readModerationSettings(tx: Queryable, isCreator: boolean): Promise<ModerationSettings> {
	const terms = await tx.query<{ term: string }>('select term from public.blocked_terms where creator_id = auth.uid() order by term')
	const bans = await tx.query<{ user_id: string; username: string | null; created_at: Date | string }>(
		'select user_id, username, created_at from public.my_bans()',
	)
	const restrictions = await tx.query<{ suspended: boolean; payouts_restricted: boolean }>(
		'select suspended, payouts_restricted from public.my_restrictions()',
	)
	return {
		creator: isCreator || terms.rows.length > 0 || bans.rows.length > 0,
		blockedTerms: terms.rows.map((row) => row.term),
		bans: bans.rows.map((row) => ({ userId: row.user_id, username: row.username, bannedAt: new Date(row.created_at).toISOString() })),
		restrictions: { suspended: restrictions.rows[0]?.suspended ?? false, payoutsRestricted: restrictions.rows[0]?.payouts_restricted ?? false },
	}
}

/**
 * Replaces the viewer's blocked terms with the textarea's (public.set_blocked_terms
 * checks and folds them). A refused list answers with the field's error and
 * an error toast, keeps what was typed, and changes nothing. With status 200:
 * after a 4xx action React Router reads no loader again, so with JavaScript
 * the root loader would not take the toast until the next page.
 */
export async function saveBlockedTerms(formData: FormData, context: Ctx, here: string) {
	const { t, language } = getInstance(context)
	const submission = parseWithZod(formData, { schema: BlockedTermsSchema })
	const refuse = (code: string) =>
		dataWithFlash(
			context,
			{ intent: BLOCKED_TERMS_INTENT, result: submission.reply({ fieldErrors: { terms: [code] } }), setup: null },
			'error',
			translateError(t, code, language),
		)
	if (submission.status !== 'success') return refuse(submission.error?.terms?.[0] ?? 'error-invalid-blocked-term')
	let saved: number
	try {
		saved = await queryAsViewer(context, async (tx) => {
			const { rows } = await tx.query('select term from public.set_blocked_terms($1::text[])', [blockedTermsOf(submission.value.terms)])
			return rows.length
		})
	} catch (error) {
		const appError = toAppError(error)
		if (!appError) throw error
		return refuse(appError.code)
	}
	return redirectWithSuccess(here, t('moderation-settings.terms-saved', { count: saved }))
}

/** Lifts a ban of the viewer's (the banned viewer may take part in their sessions again). */
export async function unbanViewer(formData: FormData, context: Ctx, here: string) {
	const { t, language } = getInstance(context)
	const parsed = UnbanSchema.safeParse({ userId: formData.get('userId') })
	if (!parsed.success) return redirectWithError(here, translateError(t, 'error-ban-not-found', language))
	const { userId } = parsed.data
	try {
		const username = await queryAsViewer(context, async (tx) => {
			const { rows } = await tx.query<{ username: string | null }>('select username from public.my_bans() where user_id = $1', [userId])
			await tx.query('select public.unban_viewer($1)', [userId])
			return rows[0]?.username ?? null
		})
		return redirectWithSuccess(
			here,
			username ? t('moderation-settings.unbanned', { username }) : t('moderation-settings.unbanned-unnamed'),
		)
	} catch (error) {
		const appError = toAppError(error)
		if (!appError) throw error
		return redirectWithError(here, translateError(t, appError.code, language))
	}
}
