import { data, type RouterContextProvider } from 'react-router'
import { redirectWithError, redirectWithSuccess } from 'remix-toast'
import { servicesContext, viewerContext } from '#app/context.server'
import { toAppError } from '#app/db/database.server'
import { translateError } from '#app/i18n/errors'
import { getInstance } from '#app/i18n/i18next.server'
import type { Locale } from '#app/i18n/locales'
import { queryAsViewer } from '#app/utils/db.server'
import { notFound } from '#app/utils/http'
import { sendApproved } from '#app/modules/payouts/earnings.server'
import { parsePayoutDecision, type PayoutDecision } from '#app/modules/payouts/schemas'
import { parseDecision, type DecisionAction, type DecisionFormError, type Ground, type ItemKind } from './decision-schemas'
import { sendDecisionMails, type ModerateResult } from './decision-mail.server'

type Ctx = Readonly<RouterContextProvider>

/** One entry of public.moderation_queue(): an open report or a held dare. */
export interface QueueItem {
	kind: Exclude<ItemKind, 'appeal'>
	id: string
	createdAt: string
	dareId: string | null
	dareDescription: string
	dareStatus: string | null
	sessionId: string | null
	sessionTitle: string | null
	platform: string | null
	channel: string | null
	authorUsername: string | null
	reason: Exclude<Ground, 'none'> | null
	details: string | null
	reporter: string | null
	/** A report: its dare is held; a held dare: the filter held it (not the session's hold-every-dare setting). */
	automated: boolean
}

/** One entry of public.moderation_appeals_open(): an appeal waiting for a decision. */
export interface OpenAppeal {
	appealId: string
	decisionId: string
	action: DecisionAction
	ground: Ground
	explanation: string
	dareDescription: string | null
	subjectUsername: string | null
	statement: string
	createdAt: string
}

/** One entry of public.payouts_awaiting_review(): a creator's payout waiting for an operator (docs/product.md §14). */
export interface PayoutAwaitingReview {
	id: string
	userId: string
	username: string | null
	coins: number
	amountMinor: number
	currency: string
	createdAt: string
	/** No payout of theirs was paid yet. */
	firstPayout: boolean
	/** Everything completed dares ever paid them. */
	earned: number
	accountCountry: string | null
}

/** A decision form the server refused before asking the database: shown at its item with what was typed. */
export type DecisionActionData = {
	target: string
	error: DecisionFormError
	values: { action: string; ground: string; explanation: string }
}

/**
 * The console's reading (/{lang}/operator): nobody but an operator learns it
 * exists. A visitor, and a signed-in user the database does not take for an
 * operator (public.moderation_queue refuses with error-not-operator, also an
 * operator who has not proved their second factor), get the app's 404.
 */
export async function loadOperatorConsole(
	request: Request,
	context: Ctx,
): Promise<{ queue: QueueItem[]; appeals: OpenAppeal[]; payouts: PayoutAwaitingReview[] }> {
	if (!context.get(viewerContext)) notFound(request)
	try {
		return await queryAsViewer(context, async (tx) => {
			const queue = await tx.query<{
				kind: QueueItem['kind']
				id: string
				created_at: Date | string
				dare_id: string | null
				dare_description: string
				dare_status: string | null
				session_id: string | null
				session_title: string | null
				platform: string | null
				channel: string | null
				author_username: string | null
				reason: QueueItem['reason']
				details: string | null
				reporter: string | null
				automated: boolean | null
			}>('select * from public.moderation_queue()')
			const appeals = await tx.query<{
				appeal_id: string
				decision_id: string
				action: DecisionAction
				ground: Ground
				explanation: string
				dare_description: string | null
				subject_username: string | null
				statement: string
				created_at: Date | string
			}>('select * from public.moderation_appeals_open()')
			const payouts = await tx.query<{
				id: string
				user_id: string
				username: string | null
				coins: number
				amount_minor: number
				currency: string
				created_at: Date | string
				first_payout: boolean
				earned: number | null
				account_country: string | null
			}>('select * from public.payouts_awaiting_review()')
			return {
				queue: queue.rows.map((r) => ({
					kind: r.kind,
					id: r.id,
					createdAt: new Date(r.created_at).toISOString(),
					dareId: r.dare_id,
					dareDescription: r.dare_description,
					dareStatus: r.dare_status,
					sessionId: r.session_id,
					sessionTitle: r.session_title,
					platform: r.platform,
					channel: r.channel,
					authorUsername: r.author_username,
					reason: r.reason,
					details: r.details,
					reporter: r.reporter,
					automated: r.automated === true,
				})),
				appeals: appeals.rows.map((r) => ({
					appealId: r.appeal_id,
					decisionId: r.decision_id,
					action: r.action,
					ground: r.ground,
					explanation: r.explanation,
					dareDescription: r.dare_description,
					subjectUsername: r.subject_username,
					statement: r.statement,
					createdAt: new Date(r.created_at).toISOString(),
				})),
				payouts: payouts.rows.map((r) => ({
					id: r.id,
					userId: r.user_id,
					username: r.username,
					coins: r.coins,
					amountMinor: r.amount_minor,
					currency: r.currency,
					createdAt: new Date(r.created_at).toISOString(),
					firstPayout: r.first_payout,
					earned: r.earned ?? 0,
					accountCountry: r.account_country,
				})),
			}
		})
	} catch (error) {
		if (toAppError(error)?.code === 'error-not-operator') notFound(request)
		throw error
	}
}

/** The toast of a decision taken. */
const DECIDED: Record<DecisionAction | PayoutDecision, string> = {
	remove_dare: 'operator.decided-remove',
	dismiss_report: 'operator.decided-dismiss',
	approve_dare: 'operator.decided-approve',
	suspend_user: 'operator.decided-suspend',
	restrict_payouts: 'operator.decided-restrict',
	appeal_upheld: 'operator.decided-upheld',
	appeal_granted: 'operator.decided-granted',
	approve_payout: 'operator.decided-approve-payout',
	reject_payout: 'operator.decided-reject-payout',
}

/**
 * A decision form (with or without JavaScript): public.moderate as the
 * viewer, which checks every rule (operator, action, ground, explanation,
 * the report, appeal or payout still open); then, once it is committed, its
 * mails (decision-mail.server.ts), and an approved payout goes to the
 * payment provider. Answered with a toast on the console; a form
 * refused before the database was asked comes back with what was typed.
 */
export async function decide(request: Request, context: Ctx, lang: Locale) {
	if (!context.get(viewerContext)) notFound(request)
	const here = `/${lang}/operator`
	const { t, language } = getInstance(context)
	const formData = await request.formData()
	// A payout waiting for review has a form of its own (approve or reject); every other item, parseDecision's.
	const parsed = formData.get('kind') === 'payout' ? parsePayoutDecision(formData) : parseDecision(formData)
	if (!parsed.ok) {
		const field = (name: string) => String(formData.get(name) ?? '')
		return data<DecisionActionData>(
			{ target: field('target'), error: parsed.error, values: { action: field('action'), ground: field('ground'), explanation: field('explanation') } },
			{ status: 400 },
		)
	}
	const { action, target, ground, explanation } = parsed.value
	let result: ModerateResult | undefined
	try {
		result = await queryAsViewer(context, async (tx) => {
			const { rows } = await tx.query<ModerateResult>('select * from public.moderate($1, $2, $3, $4)', [action, target, ground, explanation])
			return rows[0]
		})
	} catch (error) {
		const appError = toAppError(error)
		if (appError?.code === 'error-not-operator') notFound(request)
		if (!appError) console.error(`moderation: the ${action} decision failed`, error)
		return redirectWithError(here, translateError(t, appError?.code ?? 'error-unknown', language))
	}
	if (result) {
		const services = context.get(servicesContext)
		await sendDecisionMails({ db: services.db, mail: services.platform.mail, appUrl: services.env.APP_URL }, result)
		// An approved payout goes to the payment provider now (or in its next round, if this fails).
		if (action === 'approve_payout') await sendApproved(services)
	}
	return redirectWithSuccess(here, t(DECIDED[action]))
}
