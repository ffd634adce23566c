// One slice of the fleet: stack `slice-<k>` holds the pods fleet-<k × podsPerSlice> to
// fleet-<(k + 1) × podsPerSlice − 1>. The slice comes from the stack's name, so no two stacks of
// the project declare one id; a stack whose ids another stack holds fails preview (ownership is
// taken only with `adopt: true`, never guessed).
const pulumi = require("@pulumi/pulumi");
const wws = require("pulumi-wws");

const config = new pulumi.Config();
const size = config.requireNumber("podsPerSlice");
const image = config.require("image");
const match = /^slice-(\d+)$/.exec(pulumi.getStack());
if (!match) throw new Error(`stack ${pulumi.getStack()}: a fleet stack is named slice-<number>, e.g. slice-0`);
const first = Number(match[1]) * size;

for (let i = first; i < first + size; i++) new wws.Pod(`pod-${i}`, { workloadId: `fleet-${i}`, image });

exports.workloadIds = `fleet-${first} to fleet-${first + size - 1}`;
