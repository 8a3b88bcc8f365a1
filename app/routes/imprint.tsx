import { useTranslation } from 'react-i18next'
import type { Route } from './+types/imprint'
import { StaticPage } from '#app/components/static-page'
import { servicesContext } from '#app/context.server'

/** The operator's details come from configuration (OPERATOR_NAME, OPERATOR_ADDRESS, OPERATOR_EMAIL). */
export function loader({ context }: Route.LoaderArgs) {
	const { env } = context.get(servicesContext)
	return { name: env.OPERATOR_NAME ?? null, address: env.OPERATOR_ADDRESS ?? null, email: env.OPERATOR_EMAIL ?? null }
}

export default function ImprintPage({ loaderData }: Route.ComponentProps) {
	const { t } = useTranslation()
	const { name, address, email } = loaderData
	return (
		<StaticPage title={t('pages.imprint.title')} lead={t('pages.imprint.lead')}>
			{name ? (
				<dl className="facts">
					<dt>{t('pages.imprint.operator')}</dt>
					<dd>
						{name}
						{address ? <address>{address}</address> : null}
					</dd>
					{email ? (
						<>
							<dt>{t('pages.imprint.contact')}</dt>
							<dd>
								<a href={`mailto:${email}`}>{email}</a>
							</dd>
						</>
					) : null}
				</dl>
			) : (
				<p>{t('pages.imprint.not-configured')}</p>
			)}
		</StaticPage>
	)
}
