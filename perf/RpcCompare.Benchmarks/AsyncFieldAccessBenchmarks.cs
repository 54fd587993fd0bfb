using System.Runtime.CompilerServices;
using BenchmarkDotNet.Attributes;

namespace RpcCompare.Benchmarks;

/// <summary>
/// The .NET 4.5-era measurement: an async method incrementing a field 100 million times, against
/// a local and a property, on a plain class and on a MarshalByRefObject. On .NET Framework the
/// state machine reached the field of a MarshalByRefObject through a cross-context check; this
/// asks whether anything of that penalty is left on today's runtime. Each benchmark reports the
/// time per increment (OperationsPerInvoke).
/// </summary>
public class AsyncFieldAccessBenchmarks
{
    private const int Increments = 100_000_000;
    private readonly PlainCounter _plain = new();
    private readonly MarshalByRefCounter _marshalByRef = new();

    [Benchmark(Baseline = true, OperationsPerInvoke = Increments)]
    [BenchmarkCategory("Plain")]
    public Task Plain_Field() => _plain.FieldAsync(Increments);

    [Benchmark(OperationsPerInvoke = Increments)]
    [BenchmarkCategory("Plain")]
    public Task Plain_Local() => _plain.LocalAsync(Increments);

    [Benchmark(OperationsPerInvoke = Increments)]
    [BenchmarkCategory("Plain")]
    public Task Plain_Property() => _plain.PropertyAsync(Increments);

    [Benchmark(OperationsPerInvoke = Increments)]
    [BenchmarkCategory("MarshalByRef")]
    public Task MarshalByRef_Field() => _marshalByRef.FieldAsync(Increments);

    [Benchmark(OperationsPerInvoke = Increments)]
    [BenchmarkCategory("MarshalByRef")]
    public Task MarshalByRef_Local() => _marshalByRef.LocalAsync(Increments);

    [Benchmark(OperationsPerInvoke = Increments)]
    [BenchmarkCategory("MarshalByRef")]
    public Task MarshalByRef_Property() => _marshalByRef.PropertyAsync(Increments);

    public sealed class PlainCounter
    {
        private int _value;

        public int Value { get; set; }

        // NoInlining keeps each loop a method of its own, as in the original measurement.
        [MethodImpl(MethodImplOptions.NoInlining)]
        public async Task FieldAsync(int count)
        {
            for (var i = 0; i < count; i++)
            {
                _value++;
            }

            await Task.CompletedTask;
        }

        [MethodImpl(MethodImplOptions.NoInlining)]
        public async Task LocalAsync(int count)
        {
            var value = _value;
            for (var i = 0; i < count; i++)
            {
                value++;
            }

            _value = value;
            await Task.CompletedTask;
        }

        [MethodImpl(MethodImplOptions.NoInlining)]
        public async Task PropertyAsync(int count)
        {
            for (var i = 0; i < count; i++)
            {
                Value++;
            }

            await Task.CompletedTask;
        }
    }

    // Line for line the same as PlainCounter on purpose: the base class is the only variable.
    // It cannot be shared code, since what is measured is code compiled into each class.
    public sealed class MarshalByRefCounter : MarshalByRefObject
    {
        private int _value;

        public int Value { get; set; }

        [MethodImpl(MethodImplOptions.NoInlining)]
        public async Task FieldAsync(int count)
        {
            for (var i = 0; i < count; i++)
            {
                _value++;
            }

            await Task.CompletedTask;
        }

        [MethodImpl(MethodImplOptions.NoInlining)]
        public async Task LocalAsync(int count)
        {
            var value = _value;
            for (var i = 0; i < count; i++)
            {
                value++;
            }

            _value = value;
            await Task.CompletedTask;
        }

        [MethodImpl(MethodImplOptions.NoInlining)]
        public async Task PropertyAsync(int count)
        {
            for (var i = 0; i < count; i++)
            {
                Value++;
            }

            await Task.CompletedTask;
        }
    }
}
