/** The command registry the API's surfaces are generated from (COMMANDS; a test adds a throwaway command). */
export const API_COMMANDS = 'API_COMMANDS';
