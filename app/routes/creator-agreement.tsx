import { useTranslation } from 'react-i18next'
import { StaticPage } from '#app/components/static-page'

export default function CreatorAgreementPage() {
	const { t } = useTranslation()
	return <StaticPage title={t('pages.creator-agreement.title')} lead={t('pages.creator-agreement.lead')} />
}
