/**
 * Ours, in our OpenAPI document's `info`: the Settings fields this server stores but does not act
 * on, each with why (`{field: reason}`; an older server of ours lists the names alone), so the
 * Settings page can say so (OpenHands' document has none: nothing is marked). In a file of its own
 * so the features every page reads do not download the settings schemas with it.
 */
export const SETTINGS_NOT_USED_EXTENSION = 'x-settings-not-used';
