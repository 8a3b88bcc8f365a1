import { parseWithZod } from '@conform-to/zod/v4'
import { data, type RouterContextProvider } from 'react-router'
import { redirectWithError, redirectWithSuccess } from 'remix-toast'
import { translateError } from '#app/i18n/errors'
import { toAppError } from '#app/db/database.server'
import type { KeyEvent } from '#app/modules/analytics/events'
import { getInstance } from '#app/i18n/i18next.server'
import { DEFAULT_LOCALE, isLocale } from '#app/i18n/locales'
import type { GatedReason } from '#app/modules/account/gate'
import { requireReadyAccount, requireSignedIn } from '#app/modules/account/require-account.server'
import { requireViewer } from '#app/modules/account/require-viewer.server'
import { readOwnBalance } from '#app/modules/wallet/service.server'
import { queryAsViewer, statementsAsViewer } from '#app/utils/db.server'
import { z } from '#app/utils/zod'
import { RESPOND_FIELD } from './answer'
import { CREATOR_VIEW_ID, FROM_FIELD } from '#app/modules/sessions/creator-view-limits'
import { DARE_LIMITS, DareActionSchema, type DareAction } from './schemas'
import { boostDare, cancelVote, createDare, creatorCall, extendVote, readDare, rejectDare, voteForDare, type DareView } from './service.server'
import { dareActions } from '#app/metrics.server'

type Ctx = Readonly<RouterContextProvider>

const SUCCESS: Record<DareAction['intent'], string> = {
	create: 'dares.created',
	boost: 'dares.boosted',
	vote: 'dares.voted',
	accept: 'dares.accepted',
	reject: 'dares.rejected',
	'start-voting': 'dares.voting-started',
	'extend-vote': 'sessions.vote-extended',
	'cancel-vote': 'sessions.vote-cancelled',
}

/** The "failed to ..." toast when the database gives no reason of its own (docs/product.md §12.2). */
const FAILED: Record<DareAction['intent'], string> = {
	create: 'error-create-dare-failed',
	boost: 'error-boost-failed',
	vote: 'error-vote-failed',
	accept: 'error-accept-failed',
	reject: 'error-reject-failed',
	'start-voting': 'error-start-voting-failed',
	'extend-vote': 'error-unknown',
	'cancel-vote': 'error-unknown',
}

const GATE: Partial<Record<string, GatedReason>> = { create: 'create-dare', boost: 'boost', vote: 'vote' }

/** Why a form the browser should have refused is refused (a client that skipped its checks). */
function invalidInput(formData: FormData): string {
	const intent = formData.get('intent')
	if (intent === 'create') {
		if (!z.uuid().safeParse(formData.get('sessionId')).success) return 'error-live-session-not-found'
		const description = String(formData.get('description') ?? '').trim()
		if (description.length < DARE_LIMITS.description.min) return 'error-dare-description-too-short'
		if (description.length > DARE_LIMITS.description.max) return 'error-dare-description-too-long'
		return 'error-invalid-reward'
	}
	if (intent === 'boost') return 'error-invalid-amount'
	if (intent === 'extend-vote') return 'error-invalid-vote-extension'
	return 'error-unknown'
}

/** The analytics event of a done action (sent by the page, only with consent: Toasts). */
function keyEvent(action: DareAction): KeyEvent | null {
	switch (action.intent) {
		case 'create':
			return { name: 'dare-created', properties: { reward: action.reward, free: action.reward === 0 } }
		case 'boost':
			return { name: 'boost', properties: { amount: action.amount } }
		case 'vote':
			return { name: 'vote', properties: { choice: action.vote } }
		default:
			return null
	}
}

/**
 * What a form sent by the page's script (`respond=data`) gets instead of a
 * redirect: the toast, and the viewer's own reading of the dare and their
 * balance (the page applies them; everyone else's changes come by the live
 * updates, so nothing is read again).
 */
export type DareActionResult =
	| { ok: true; message: string; event?: KeyEvent; dare: DareView | null; balance: number | null; xid: number | null }
	| { ok: false; error: string }

/**
 * The dares panel's forms on a session page (create, boost, vote; the
 * creator's accept, reject and start voting; the creator's view also extends
 * or cancels the running vote). Form posts that come back to the page with a
 * toast; a boost, a vote or a new dare sent by the page's
 * script is answered with data instead (DareActionResult). The database
 * decides every rule and its refusal is the toast. A boost the wallet cannot pay goes
 * to the shop, which returns to this dare.
 */
export async function dareAction(request: Request, context: Ctx, formData: FormData) {
	const { t, language } = getInstance(context)
	const url = new URL(request.url)
	const back = url.pathname
	const reason = GATE[String(formData.get('intent'))]
	// The account steps (username, current terms) are checked by the call itself (assert_participant).
	if (reason) await requireSignedIn(request, context, { reason, returnTo: back })
	else requireViewer(request, context)

	const withData = formData.get(RESPOND_FIELD) === 'data'
	const refuse = (code: string) => {
		const error = translateError(t, code, language)
		return withData ? data<DareActionResult>({ ok: false, error }) : redirectWithError(back, error)
	}
	const submission = parseWithZod(formData, { schema: DareActionSchema })
	if (submission.status !== 'success') return refuse(invalidInput(formData))
	const action = submission.value
	let dareId = 'dareId' in action ? action.dareId : null
	let xid: number | null = null
	// A new dare the filter or the session holds waits for the creator's review: the toast says so.
	let held = false
	try {
		// Each call is one statement, sent with the viewer's role in one round trip.
		const viewer = statementsAsViewer(context)
		switch (action.intent) {
			case 'create': {
				const made = await createDare(viewer, {
					sessionId: action.sessionId,
					description: action.description,
					reward: action.reward,
					key: action.key,
					language: isLocale(language) ? language : DEFAULT_LOCALE,
				})
				dareId = made.id
				xid = made.xid
				held = made.status === 'held'
				break
			}
			case 'boost':
				xid = (await boostDare(viewer, { dareId: action.dareId, amount: action.amount, key: action.key })).xid
				break
			case 'vote':
				xid = (await voteForDare(viewer, { dareId: action.dareId, vote: action.vote === 'yes' })).xid
				break
			case 'reject':
				await rejectDare(viewer, { dareId: action.dareId, key: action.key })
				break
			case 'extend-vote':
				await extendVote(viewer, { dareId: action.dareId, seconds: action.seconds })
				break
			case 'cancel-vote':
				await cancelVote(viewer, action.dareId)
				break
			default:
				await creatorCall(viewer, action.intent, action.dareId)
		}
	} catch (error) {
		const appError = toAppError(error)
		if (!appError) console.error(`dare ${action.intent} failed`, error)
		const code = appError?.code ?? FAILED[action.intent]
		// Redirected to the dialog of the step owed, as before any other gated action.
		if (code === 'error-account-incomplete' && reason) await requireReadyAccount(request, context, { reason, returnTo: back })
		if (code === 'error-insufficient-funds' && 'dareId' in action) {
			const returnPath = `${back}#dare-${action.dareId}`
			return redirectWithError(`${url.pathname.split('/').slice(0, 2).join('/')}/shop?${new URLSearchParams({ returnPath })}`, translateError(t, code, language))
		}
		return refuse(code)
	}
	dareActions.inc({ intent: action.intent })
	const event = keyEvent(action)
	const message = held ? t('moderation.held-created') : t(SUCCESS[action.intent], action.intent === 'extend-vote' ? { seconds: action.seconds } : {})
	const done = { message, ...(event ? { event } : {}) }
	if (withData) {
		// Done: a reading that fails now (the database gone a moment) answers without it, and the page reads itself again.
		const [dare, balance] = await queryAsViewer(context, async (tx) => [dareId ? await readDare(tx, dareId) : null, await readOwnBalance(tx)] as const).catch(
			(error: unknown) => {
				console.error(`dare ${action.intent} done, its reading failed`, error)
				return [null, null] as const
			},
		)
		return data<DareActionResult>({ ok: true, ...done, dare, balance, xid })
	}
	// Back to the form's place: the dare's card, or the creator's view its form came from.
	const anchor = formData.get(FROM_FIELD) === CREATOR_VIEW_ID ? `#${CREATOR_VIEW_ID}` : 'dareId' in action ? `#dare-${action.dareId}` : ''
	return redirectWithSuccess(`${back}${anchor}`, done)
}
