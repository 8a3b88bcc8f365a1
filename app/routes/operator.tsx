import type { Route } from './+types/operator'
import type { Locale } from '#app/i18n/locales'
import { OperatorConsole } from '#app/modules/moderation/operator-page'
import { decide, loadOperatorConsole } from '#app/modules/moderation/operator.server'
import moderationStylesHref from '#app/styles/moderation.css?url'
import type { StylesheetsHandle } from '#app/styles/stylesheets'

export const handle: StylesheetsHandle = { stylesheets: [moderationStylesHref] }

/** /{lang}/operator: the operators' console; a 404 for everyone else (app/modules/moderation/operator.server.ts). */
export function loader({ request, context }: Route.LoaderArgs) {
	return loadOperatorConsole(request, context)
}

export function action({ request, context, params }: Route.ActionArgs) {
	return decide(request, context, params.lang as Locale)
}

export default function OperatorRoute({ loaderData, actionData, params }: Route.ComponentProps) {
	return <OperatorConsole queue={loaderData.queue} appeals={loaderData.appeals} payouts={loaderData.payouts} lang={params.lang as Locale} failed={actionData ?? null} />
}
