/** The board a request works on: checked against the credential's rights by the plugin. */
export interface BoardScope { id: number; slug: string }
