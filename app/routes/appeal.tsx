import type { Route } from './+types/appeal'
import type { Locale } from '#app/i18n/locales'
import { AppealPage } from '#app/modules/moderation/appeal-page'
import { appealDecision, loadMyDecision } from '#app/modules/moderation/appeal.server'
import moderationStylesHref from '#app/styles/moderation.css?url'
import type { StylesheetsHandle } from '#app/styles/stylesheets'

export const handle: StylesheetsHandle = { stylesheets: [moderationStylesHref] }

/** /{lang}/appeal/:decisionId: a decision about the signed-in user and their appeal (the statement of reasons links here). */
export async function loader({ request, context, params }: Route.LoaderArgs) {
	return { decision: await loadMyDecision(request, context, params.decisionId) }
}

export function action({ request, context, params }: Route.ActionArgs) {
	return appealDecision(request, context, params.lang as Locale, params.decisionId)
}

export default function AppealRoute({ loaderData, actionData, params }: Route.ComponentProps) {
	return <AppealPage decision={loaderData.decision} lang={params.lang as Locale} failed={actionData ?? null} />
}
