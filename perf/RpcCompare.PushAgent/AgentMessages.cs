namespace RpcCompare.PushAgent;

/// <summary>What the runner asks of an agent, one per line on its stdin.</summary>
/// <param name="Command">
/// "subscribe": hold exactly <see cref="Count"/> subscribers of <see cref="Topic"/> (adding or closing some);
/// "burst": report what arrived of publication <see cref="Sequence"/> of <see cref="Topic"/>, and forget it and anything older;
/// "collaborate": run <see cref="Rooms"/> rooms of <see cref="Members"/> (topics room-<see cref="FirstRoom"/>…),
/// every member publishing in turn, each room idle <see cref="IntervalSeconds"/> after each publication, <see cref="Iterations"/> times;
/// "exit".
/// </param>
/// <param name="Binding">The binding to subscribe over, with its <paramref name="Address"/> and push <paramref name="Variant"/> (null: its default).</param>
/// <param name="Address">The binding's address, as the host published it.</param>
/// <param name="Variant">One of the binding's push variants.</param>
/// <param name="Topic">"subscribe" and "burst": the broadcast's topic.</param>
/// <param name="Count">"subscribe": subscribers to hold.</param>
/// <param name="Sequence">"burst": the publication asked about.</param>
/// <param name="Rooms">"collaborate": rooms this agent runs.</param>
/// <param name="Members">"collaborate": subscribers per room, each also a publisher.</param>
/// <param name="FirstRoom">"collaborate": number of this agent's first room (rooms are numbered across agents).</param>
/// <param name="IntervalSeconds">"collaborate": idle time of a room after each publication.</param>
/// <param name="Iterations">"collaborate": publications per room.</param>
/// <param name="Items">"collaborate": strings in each notification (the original: 20).</param>
internal sealed record AgentCommand(
    string Command,
    string? Binding = null,
    string? Address = null,
    string? Variant = null,
    string? Topic = null,
    int Count = 0,
    long Sequence = 0,
    int Rooms = 0,
    int Members = 0,
    int FirstRoom = 0,
    double IntervalSeconds = 0,
    int Iterations = 0,
    int Items = 20);

/// <summary>An agent's answer to one command, one per line on its stdout.</summary>
/// <param name="Event">The command answered: "subscribe", "burst", "collaborate"; "error" when it failed.</param>
/// <param name="Count">Subscribers held after "subscribe"; notifications received for "burst" and "collaborate".</param>
/// <param name="Expected">"collaborate": receipts expected (rooms × iterations × (members − 1)).</param>
/// <param name="LatenciesMilliseconds">Publish-to-receive latency of each notification received.</param>
/// <param name="Error">What failed, when something did (a subscriber refused or dropped, a publish failed).</param>
internal sealed record AgentEvent(
    string Event,
    int Count = 0,
    long Expected = 0,
    double[]? LatenciesMilliseconds = null,
    string? Error = null);
