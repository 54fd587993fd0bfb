using System.Buffers.Binary;
using RpcCompare.Contracts;

namespace RpcCompare.Load.Chaos;

/// <summary>
/// Sequence-numbered writes into one file of the host's data root, and afterwards the check that
/// the file holds every write the client saw acknowledged. Write n puts a 16-byte record (magic,
/// the binding's index, n) at offset 16 × n of a file made large enough beforehand, so every write
/// has its own place and a lost one leaves zeros.
/// </summary>
internal sealed class WriteLedger
{
    public const int RecordSize = 16;
    private const uint Magic = 0x43435052; // "RPCC" read little-endian

    private readonly int _bindingIndex;
    private readonly byte[] _acknowledged;
    private long _next = -1;

    /// <param name="dataRoot">The host's data root, on this machine.</param>
    /// <param name="binding">Names the file: chaos/&lt;binding&gt;.bin.</param>
    /// <param name="bindingIndex">Written into every record, so a record in the wrong file would show.</param>
    /// <param name="capacity">Writes the file has room for.</param>
    public WriteLedger(string dataRoot, string binding, int bindingIndex, int capacity)
    {
        _bindingIndex = bindingIndex;
        _acknowledged = new byte[capacity];
        RelativePath = $"chaos/{binding}.bin";
        FullPath = Path.Combine(dataRoot, "chaos", $"{binding}.bin");
        Directory.CreateDirectory(Path.GetDirectoryName(FullPath)!);
        using (var file = new FileStream(FullPath, FileMode.Create, FileAccess.Write))
        {
            file.SetLength((long)capacity * RecordSize); // Sparse: zeros cost no disk until written.
        }

        // A fleet's replicas may run as another user (a container's app user) on a shared volume.
        if (!OperatingSystem.IsWindows())
        {
            File.SetUnixFileMode(FullPath, File.GetUnixFileMode(FullPath) | UnixFileMode.GroupWrite | UnixFileMode.OtherWrite);
        }
    }

    public string RelativePath { get; }

    public string FullPath { get; }

    /// <summary>Writes handed out so far.</summary>
    public long Attempted => Math.Min(Interlocked.Read(ref _next) + 1, _acknowledged.Length);

    /// <summary>The next write's sequence number and request; throws once the file is full.</summary>
    public (long Sequence, WriteAtRequest Request) Next()
    {
        var sequence = Interlocked.Increment(ref _next);
        if (sequence >= _acknowledged.Length)
        {
            throw new InvalidOperationException($"The ledger's file has room for {_acknowledged.Length:#,0} writes; lengthen it or shorten the run.");
        }

        var record = new byte[RecordSize];
        BinaryPrimitives.WriteUInt32LittleEndian(record, Magic);
        BinaryPrimitives.WriteInt32LittleEndian(record.AsSpan(4), _bindingIndex);
        BinaryPrimitives.WriteInt64LittleEndian(record.AsSpan(8), sequence);
        return (sequence, new WriteAtRequest { Path = RelativePath, Offset = sequence * RecordSize, Data = record });
    }

    /// <summary>The reply for <paramref name="sequence"/> arrived: the service says it is written.</summary>
    public void Acknowledge(long sequence) => Volatile.Write(ref _acknowledged[sequence], 1);

    /// <summary>Reads the file and compares it with what was acknowledged.</summary>
    public WriteVerification Verify()
    {
        var content = File.ReadAllBytes(FullPath);
        long acknowledged = 0, lost = 0, writtenUnacknowledged = 0;
        var firstLost = new List<long>();
        for (long sequence = 0; sequence < Attempted; sequence++)
        {
            var record = content.AsSpan((int)(sequence * RecordSize), RecordSize);
            var present = BinaryPrimitives.ReadUInt32LittleEndian(record) == Magic
                && BinaryPrimitives.ReadInt32LittleEndian(record[4..]) == _bindingIndex
                && BinaryPrimitives.ReadInt64LittleEndian(record[8..]) == sequence;
            if (_acknowledged[sequence] == 1)
            {
                acknowledged++;
                if (!present)
                {
                    lost++;
                    if (firstLost.Count < 10)
                    {
                        firstLost.Add(sequence);
                    }
                }
            }
            else if (present)
            {
                writtenUnacknowledged++;
            }
        }

        return new WriteVerification(Attempted, acknowledged, acknowledged - lost, lost, writtenUnacknowledged, firstLost);
    }
}

/// <summary>What the file held after the run.</summary>
/// <param name="Attempted">Writes sent.</param>
/// <param name="Acknowledged">Writes whose reply arrived.</param>
/// <param name="Verified">Acknowledged writes found in the file.</param>
/// <param name="Lost">Acknowledged writes missing from the file: must be 0.</param>
/// <param name="WrittenUnacknowledged">Writes in the file whose reply never arrived (the host died between writing and replying).</param>
/// <param name="FirstLost">Up to ten lost sequence numbers.</param>
internal sealed record WriteVerification(long Attempted, long Acknowledged, long Verified, long Lost, long WrittenUnacknowledged, IReadOnlyList<long> FirstLost);
