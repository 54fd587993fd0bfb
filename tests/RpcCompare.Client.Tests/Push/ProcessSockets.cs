namespace RpcCompare.Client.Tests.Push;

/// <summary>Sockets this test process holds open: both ends of an in-process host's connections.</summary>
internal static class ProcessSockets
{
    public static int Count() =>
        Directory.GetFiles("/proc/self/fd").Count(fd => new FileInfo(fd).LinkTarget?.StartsWith("socket:", StringComparison.Ordinal) == true);
}
