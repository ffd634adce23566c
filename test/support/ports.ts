export { closedPort } from "../../bench/common";
