/** Where a stack's project is and the environment its commands run with. @default this process's */
export interface StackPlace {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
}
