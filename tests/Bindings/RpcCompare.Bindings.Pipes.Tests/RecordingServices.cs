using RpcCompare.Contracts;

namespace RpcCompare.Bindings.Pipes.Tests;

/// <summary>The three contracts, answering fixed values and recording each call with its arguments.</summary>
internal sealed class RecordingServices : IFileService, ICallShapeService, IPayloadService
{
    public List<string> Calls { get; } = [];

    /// <summary>When set, ReturnInt fails with it: a service with a bug.</summary>
    public Exception? ReturnIntFailure { get; set; }

    /// <summary>Zero bytes EchoBytes appends to what it sends back, for replies larger than their request.</summary>
    public int EchoExtraBytes { get; set; }

    public Task<PingReply> PingAsync(PingRequest request) => Record("Ping", new PingReply());

    public Task<ReadDirectoryReply> ReadDirectoryAsync(ReadDirectoryRequest request) =>
        Record($"ReadDirectory {request.Path}", new ReadDirectoryReply
        {
            Entries = [new DirectoryEntry { Name = "a", Size = 1, LastWriteTimeUtcTicks = 10 }, new DirectoryEntry { Name = "b", IsDirectory = true, LastWriteTimeUtcTicks = 20 }],
        });

    public Task<WriteAtReply> WriteAtAsync(WriteAtRequest request) =>
        Record($"WriteAt {request.Path} {request.Count} {request.Offset} {request.Repeat} {string.Join(',', request.Data ?? [])}",
            new WriteAtReply { BytesWritten = 6, Offset = 11, FileLength = 100 });

    public Task VoidCallAsync() => Record("VoidCall", 0);

    public Task TakeIntAsync(IntMessage request) => Record($"TakeInt {request.Value}", 0);

    /// <summary>When set, ReturnInt awaits it before answering: a service that takes its time.</summary>
    public Func<Task>? BeforeReturnInt { get; set; }

    public async Task<IntMessage> ReturnIntAsync()
    {
        if (BeforeReturnInt is { } wait)
        {
            await wait();
        }

        return ReturnIntFailure is { } failure ? throw failure : await Record("ReturnInt", new IntMessage { Value = 99 });
    }

    public Task<IntMessage> IncrementAsync(IntMessage request) => Record($"Increment {request.Value}", new IntMessage { Value = request.Value + 1 });

    public Task TakePointAsync(PointMessage request) =>
        Record(FormattableString.Invariant($"TakePoint {request.X} {request.Y} {request.Z} {request.Weight}"), 0);

    public Task<BytesMessage> EchoBytesAsync(BytesMessage request) =>
        Record($"EchoBytes {string.Join(',', request.Data)}", new BytesMessage { Data = [.. Enumerable.Reverse(request.Data), .. new byte[EchoExtraBytes]] });

    public Task<LengthReply> SendBytesAsync(BytesMessage request) => Record($"SendBytes {string.Join(',', request.Data)}", new LengthReply { Length = request.Data.Length });

    public Task<LengthReply> SendRecordsAsync(RecordsMessage request) =>
        Record($"SendRecords {string.Join(' ', request.Records.Select(r => $"{r.R}.{r.G}.{r.B}.{r.A}"))}", new LengthReply { Length = request.Records.Length });

    public Task<LengthReply> SendStringAsync(StringMessage request) => Record($"SendString {request.Text}", new LengthReply { Length = request.Text.Length });

    private Task<T> Record<T>(string call, T reply)
    {
        lock (Calls)
        {
            Calls.Add(call);
        }

        return Task.FromResult(reply);
    }
}
