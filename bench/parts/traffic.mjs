// Browser sessions per minute per core from the traffic generator, and peak memory per
// concurrent session. The traffic generator is not built yet (docs/architecture.md, "Not built
// yet"); until it is, this part reports that and measures nothing.
export default {
  title: 'Traffic generator',
  async run() {
    return {
      rows: [],
      notes: [
        'Not measured: the traffic generator does not exist yet. Its sessions per minute per core and peak memory per concurrent session are added here when it is built.',
      ],
    };
  },
};
