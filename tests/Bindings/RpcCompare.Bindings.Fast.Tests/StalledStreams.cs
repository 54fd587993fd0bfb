using System.ServiceModel;

namespace RpcCompare.Bindings.Fast.Tests;

/// <summary>Streamed operations that stall where a test says, for the call timeout and cancellation of streamed calls.</summary>
[ServiceContract(Namespace = "urn:rpccompare:tests:fast")]
public interface IStalledStreams
{
    [OperationContract]
    int Echo(int value);

    /// <summary>A reply stream of <see cref="StalledStreams.FirstChunk"/> bytes, then nothing until the test releases it (then its end).</summary>
    [OperationContract]
    Stream Trickle();

    /// <summary>A reply stream that comes only when the token is cancelled (recorded), or never.</summary>
    [OperationContract]
    Task<Stream> NeverAsync(CancellationToken cancellationToken);

    /// <summary>Reads the request stream's first byte, then waits for its token (recorded); the stream's length so far if released.</summary>
    [OperationContract]
    Task<int> ReadFirstByteAsync(Stream data, CancellationToken cancellationToken);
}

public sealed class StalledStreams : IStalledStreams
{
    public const int FirstChunk = 1_000;

    private readonly TaskCompletionSource _released = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private readonly TaskCompletionSource _tokenFired = new(TaskCreationOptions.RunContinuationsAsynchronously);

    private readonly TaskCompletionSource _waiting = new(TaskCreationOptions.RunContinuationsAsynchronously);

    /// <summary>Whether a service's token was cancelled (the client's connection closed under its call).</summary>
    public Task TokenFired => _tokenFired.Task;

    /// <summary>Whether a call has reached its wait for the token (its request stream's first byte read).</summary>
    public Task Waiting => _waiting.Task;

    /// <summary>Lets every stalled stream end.</summary>
    public void Release() => _released.TrySetResult();

    public int Echo(int value) => value;

    public Stream Trickle() => new TricklingStream(_released.Task);

    public async Task<Stream> NeverAsync(CancellationToken cancellationToken)
    {
        await WaitForCancellationAsync(cancellationToken);
        return Stream.Null;
    }

    public async Task<int> ReadFirstByteAsync(Stream data, CancellationToken cancellationToken)
    {
        var first = data.ReadByte();
        await WaitForCancellationAsync(cancellationToken);
        return first;
    }

    private async Task WaitForCancellationAsync(CancellationToken cancellationToken)
    {
        _waiting.TrySetResult();
        try
        {
            await _released.Task.WaitAsync(cancellationToken);
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            // Not a registration on the token: WaitAsync's own callback runs first and would end its scope.
            _tokenFired.TrySetResult();
            throw;
        }
    }

    /// <summary>Its first bytes at once, then blocks its reader (the server's thread sending it) until released.</summary>
    private sealed class TricklingStream(Task released) : Stream
    {
        private int _sent;

        public override bool CanRead => true;

        public override bool CanSeek => false;

        public override bool CanWrite => false;

        public override long Length => throw new NotSupportedException();

        public override long Position { get => throw new NotSupportedException(); set => throw new NotSupportedException(); }

        public override int Read(byte[] buffer, int offset, int count)
        {
            if (_sent == 0)
            {
                _sent = Math.Min(count, FirstChunk);
                Array.Fill(buffer, (byte)7, offset, _sent);
                return _sent;
            }

            // Bounded, so a test that forgets to release cannot hold the server's thread for good.
            released.Wait(TimeSpan.FromSeconds(30));
            return 0;
        }

        public override void Flush()
        {
        }

        public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();

        public override void SetLength(long value) => throw new NotSupportedException();

        public override void Write(byte[] buffer, int offset, int count) => throw new NotSupportedException();
    }
}
