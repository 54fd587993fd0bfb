namespace RpcCompare.Client.Tests.Push;

/// <summary>
/// The push tests run alone: they count the test process's sockets (/proc/self/fd) before and
/// after, and a test class running beside them opened and closed connections of its own (CI saw
/// 27 sockets before and 42 after on grpc-tcp). Alone, they also get the 2 cores for a few hundred subscribers.
/// </summary>
[CollectionDefinition(Name, DisableParallelization = true)]
public sealed class PushTestsRunAlone
{
    public const string Name = "Push";
}
