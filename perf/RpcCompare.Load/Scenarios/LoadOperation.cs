using RpcCompare.Client;
using RpcCompare.Contracts;

namespace RpcCompare.Load.Scenarios;

/// <summary>
/// One operation a scenario calls in its loop: a name for --operations and the reports, the bytes
/// one call carries, and how a client session makes the call (its request built once).
/// </summary>
internal sealed record LoadOperation(string Name, long PayloadBytes, Func<RpcClientSession, Func<Task>> CreateCall)
{
    /// <summary>Bytes of the EchoBytes request (and of its reply).</summary>
    public const int EchoBytes = 100_000;

    public static IReadOnlyList<LoadOperation> All { get; } =
    [
        new("ping", 0, static session =>
        {
            var files = session.Get<IFileService>();
            var request = new PingRequest();
            return () => files.PingAsync(request);
        }),
        new("read-directory", 0, static session =>
        {
            var files = session.Get<IFileService>();
            var request = new ReadDirectoryRequest { Path = "files" };
            return () => files.ReadDirectoryAsync(request);
        }),
        new("write-at", 100, static session =>
        {
            var files = session.Get<IFileService>();
            var request = new WriteAtRequest();
            return () => files.WriteAtAsync(request);
        }),
        new("echo-100kB", 2L * EchoBytes, static session =>
        {
            var payloads = session.Get<IPayloadService>();
            var request = new BytesMessage { Data = new byte[EchoBytes] };
            return () => payloads.EchoBytesAsync(request);
        }),
    ];

    public static LoadOperation Find(string name) =>
        All.FirstOrDefault(o => o.Name == name)
        ?? throw new ArgumentException($"Unknown operation '{name}'. Operations: {string.Join(", ", All.Select(o => o.Name))}.");
}
