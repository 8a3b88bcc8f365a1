import { useTranslation } from '#app/i18n/translation'
import type { Route } from './+types/channels'
import { PageTitle } from '#app/components/page-title'
import type { Locale } from '#app/i18n/locales'
import { servicesContext } from '#app/context.server'
import { connectablePlatforms } from '#app/modules/channels/connect.server'
import { requireViewer } from '#app/modules/account/require-viewer.server'
import { channelsAction } from '#app/modules/sessions/actions.server'
import { LinkedChannels } from '#app/modules/sessions/linked-channels'
import { getLinkedChannels } from '#app/modules/sessions/service.server'
import sessionsStylesHref from '#app/styles/sessions.css?url'
import type { StylesheetsHandle } from '#app/styles/stylesheets'
import { queryAsViewer } from '#app/utils/db.server'

export const handle: StylesheetsHandle = { stylesheets: [sessionsStylesHref] }

/** /{lang}/settings/channels: the "Linked channels" settings section as its own page, and its action. */
export async function loader({ request, context }: Route.LoaderArgs) {
	requireViewer(request, context)
	return {
		channels: await queryAsViewer(context, (tx) => getLinkedChannels(tx)),
		connectable: connectablePlatforms(context.get(servicesContext).env),
	}
}

export function action({ request, context, params }: Route.ActionArgs) {
	return channelsAction(request, context, params.lang as Locale)
}

export default function ChannelsRoute({ loaderData, params }: Route.ComponentProps) {
	const { t } = useTranslation()
	return (
		<div className="settings">
			<PageTitle title={t('channels.title')} />
			<h1>{t('channels.title')}</h1>
			<LinkedChannels channels={loaderData.channels} connectable={loaderData.connectable} lang={params.lang as Locale} />
		</div>
	)
}
