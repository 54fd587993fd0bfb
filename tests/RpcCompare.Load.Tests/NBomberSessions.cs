namespace RpcCompare.Load.Tests;

/// <summary>
/// The test classes that run NBomber sessions, run one at a time: NBomber keeps process-wide state
/// (its logger and console display), and two sessions at once in one process broke the first one
/// after its first scenario. Serial also keeps the host of one class from sharing 2 cores with another's.
/// </summary>
[CollectionDefinition(Name, DisableParallelization = true)]
public sealed class NBomberSessions
{
    public const string Name = "NBomber sessions";
}
