import type { Route } from './+types/earnings'
import type { Locale } from '#app/i18n/locales'
import { EarningsPage } from '#app/modules/payouts/earnings-page'
import { earningsAction, loadEarnings } from '#app/modules/payouts/earnings.server'
import earningsStylesHref from '#app/styles/earnings.css?url'
import sessionsStylesHref from '#app/styles/sessions.css?url'
import type { StylesheetsHandle } from '#app/styles/stylesheets'

// sessions.css: the request form's number field.
export const handle: StylesheetsHandle = { stylesheets: [sessionsStylesHref, earningsStylesHref] }

/** /{lang}/earnings: a creator's earnings and payouts (app/modules/payouts/earnings.server.ts, docs/product.md §14). */
export function loader({ request, context, params }: Route.LoaderArgs) {
	return loadEarnings(request, context, params.lang as Locale)
}

export function action({ request, context, params }: Route.ActionArgs) {
	return earningsAction(request, context, params.lang as Locale)
}

export default function EarningsRoute({ loaderData, actionData, params }: Route.ComponentProps) {
	return <EarningsPage data={loaderData} actionData={actionData ?? null} lang={params.lang as Locale} />
}
