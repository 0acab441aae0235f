/** The id of the "Conversation starting" notice of start task `taskId`: it goes when the start ends, however it ends. */
export const startingNoticeId = (taskId: string) => `conversation-starting-${taskId}`;
